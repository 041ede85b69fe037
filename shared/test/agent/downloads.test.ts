// Downloads (issue 33): where a click is judged likely to download (the person is asked), the
// line an answer says about a download, and the file name a site suggests made safe for the
// download folder.
import { describe, expect, it } from "vitest";
import { assessAction, likelyDownload, type ActionTarget, type TargetFacts } from "../../src/agent/index.js";
import { downloadLine } from "../../src/agent/tools/index.js";
import { safeFileName } from "../../src/agent/backends/headless/downloads.js";

const page = "https://billing.example.com/invoices";
const link = (name: string): ActionTarget => ({ id: 4, role: "link", name, input_type: null });
const facts = (over: Partial<TargetFacts> = {}): TargetFacts => ({
  tag: "a", inputType: null, autocomplete: "", secret: false, submits: false, download: false, href: null, form: null, ...over,
});

describe("a click that downloads is sensitive", () => {
  it("a link with the download attribute, or to a file browsers save, asks the person and says why", () => {
    for (const f of [facts({ download: true, href: `${page}/7` }), facts({ href: "https://billing.example.com/files/invoice-7.PDF?v=2" }), facts({ href: "https://billing.example.com/setup.exe" })]) {
      const a = assessAction({ kind: "click", id: 4 }, { pageUrl: page, target: link("Invoice 7"), facts: f, siteAllowed: true });
      expect(a, f.href ?? "").toMatchObject({ tier: "sensitive", ask: true });
      expect(a.summary).toBe("Click 'Invoice 7' [4], a sensitive action: it downloads a file");
    }
  });

  it("a link to a page is not a download, whatever its words", () => {
    expect(likelyDownload(facts({ href: "https://billing.example.com/invoices/7" }))).toBe(false);
    expect(likelyDownload(facts({ href: "https://billing.example.com/invoice.html" }))).toBe(false);
    expect(likelyDownload(facts({ href: "javascript:void(0).pdf" }))).toBe(false);
    expect(likelyDownload(null)).toBe(false);
    const a = assessAction({ kind: "click", id: 4 }, { pageUrl: page, target: link("Download"), facts: facts({ href: "https://billing.example.com/invoices/7" }), siteAllowed: true });
    expect(a.tier).toBe("act");
  });
});

describe("what the answer says", () => {
  it("names the file, its size and where it is; off says how to turn downloads on", () => {
    expect(downloadLine({ file: "invoice-7.pdf", url: "u", state: "saved", size: 1234, path: "/d/invoice-7.pdf" })).toBe('downloaded "invoice-7.pdf" (1.2 kB) to /d/invoice-7.pdf (saved, not opened)');
    expect(downloadLine({ file: "a.zip", url: "u", state: "in_progress" })).toBe('downloading "a.zip": still arriving');
    expect(downloadLine({ file: "a.zip", url: "u", state: "off" })).toMatch(/not kept: downloads are off .*SIGHTLINE_DOWNLOAD_DIR/);
    expect(downloadLine({ file: "a.zip", url: "u", state: "failed", error: "canceled" })).toBe('the download of "a.zip" failed: canceled');
  });
});

describe("a suggested file name is one name inside the folder", () => {
  it("drops folder parts, control characters and leading dots", () => {
    expect(safeFileName("../../.ssh/authorized_keys")).toBe("authorized_keys");
    expect(safeFileName("C:\\Windows\\evil.bat")).toBe("evil.bat");
    expect(safeFileName(".bashrc")).toBe("bashrc");
    expect(safeFileName("in\u0000voice\n7?.pdf")).toBe("in_voice_7_.pdf");
    expect(safeFileName("..")).toBe("download");
    expect(safeFileName("")).toBe("download");
  });
});
