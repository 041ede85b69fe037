// The server's side of the extension bridge: which browsers of which account are connected,
// and the agent backend an MCP session of that account works through.
import type { AgentBackend } from "@sightline/shared/agent";

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
