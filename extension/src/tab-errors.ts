// Turns the browser's terse scripting/capture errors into sentences a person can act on.
export function explainTabError(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/cannot access a chrome|chrome:\/\/|chrome-extension:\/\/|webstore|cannot be scripted|extensions gallery/i.test(msg)) {
    return "Browser pages (chrome://, other extensions, the Web Store) cannot be read. Switch to a web page.";
  }
  if (/Cannot access contents|Missing host permission|activeTab|permission to access|<all_urls>/i.test(msg)) {
    return "Sightline has no access to this tab yet. Click the Sightline toolbar button while the page is open (access is granted for that tab only), then try again.";
  }
  if (/No tab with id|Invalid tab ID/i.test(msg)) return "The tab was closed. Pick another tab and try again.";
  if (/Frame with ID 0 was removed|page navigated|frame was removed/i.test(msg)) {
    return "The page navigated while it was being read. Try again when it has loaded.";
  }
  return msg;
}
