// The server's side of the extension bridge: which browsers of which account are connected,
// and the agent backend an MCP session of that account works through.
import { AgentError, type AgentBackend } from "@sightline/shared/agent";

export interface Bridge {
  /**
   * The backend an MCP session works through: the tabs the extensions of `accountId` shared.
   * `sessionId` names the agent, for tab leases (a second agent never silently takes over).
   */
  backendFor(accountId: string, sessionId: string): AgentBackend;
  /** The agent session ended: its leases go. */
  release(sessionId: string): void;
  /** Closes every extension connection (server shutdown). */
  close(): Promise<void>;
}

/** Until a bridge is wired: every extension-backed call says no browser is connected. */
export function disconnectedBridge(): Bridge {
  const none = async (): Promise<never> => {
    throw new AgentError("not_connected", "no browser is connected for this account: open the Sightline extension, set this server and key, and share a tab");
  };
  return {
    backendFor: () => ({ tabs: async () => [], capture: none, read: none, screenshot: none, act: none, wait: none }),
    release: () => undefined,
    close: async () => undefined,
  };
}
