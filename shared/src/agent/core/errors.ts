// The errors an agent can read and act on: one code per way a call fails, the same on every
// backend and transport (documented in docs/mcp.md). Isomorphic.

/** Error codes every backend and tool shares (documented in docs/mcp.md). */
export const AGENT_ERROR_CODES = [
  "bad_arguments", // a tool's arguments are missing or of the wrong type
  "no_snapshot", // an element id was used before any snapshot of the tab
  "unknown_id", // the id was not in the tab's last snapshot
  "stale", // the element behind the id is no longer on the page
  "not_actionable", // e.g. select on something that is not a select, type into a div
  "bad_url", // navigate to a URL an agent may not open (file:, chrome:, javascript:...)
  "no_tab", // the tab does not exist or is not shared with the agent
  "rejected", // the person rejected the action
  "handed_back", // the person took the tab over and handed it back: the answer shows what they changed
  "not_connected", // no browser is connected for this account (extension backend)
  "busy", // another agent holds the lease on this tab
  "dialog_open", // a JavaScript dialog blocks the page: answer it with the dialog tool first
  "no_dialog", // the dialog tool was called with no dialog open on the tab
  "timeout",
  "failed",
] as const;
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

export class AgentError extends Error {
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    /** Extra facts for the agent (e.g. the closest current element of a stale id). */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AgentError";
  }
}

export function isAgentError(err: unknown): err is AgentError {
  return err instanceof Error && (err as { name?: string }).name === "AgentError" && typeof (err as AgentError).code === "string";
}
