// The person's-tab backend: every AgentBackend call becomes a bridge call to the extension
// that shared the tab. The extension does the page work (and asks the person before acting).
// A navigate is held to the server's host policy before it is relayed (`checkNavigate`, the
// server's: an agent steered by a page must not walk the person's browser into their
// intranet or a metadata address). Isomorphic: the hub and the policy are the server's.
import { checkNavigableUrl, type ActionTarget, type AgentAction, type AgentTab } from "../../core/actions.js";
import type { SnapshotRequest } from "../../../contract/index.js";
import type { ActOptions, ActOutcome, AgentBackend, CallHooks, CaptureOptions, MarkBox, ReadPage } from "../../session/backend.js";
import { base64Size, fileNameOf } from "../../core/uploads.js";
import { AgentError } from "../../core/errors.js";
import type { BridgeOp, BridgeOps, UploadFile } from "./protocol.js";

/** What the backend needs of the hub (server/src/bridge/hub.ts implements it). */
export interface BridgeCalls {
  /** Synchronous on one instance; several instances read the others' from the database. */
  tabs(accountId: string): AgentTab[] | Promise<AgentTab[]>;
  call<K extends BridgeOp>(accountId: string, sessionId: string, handle: string, op: K, args: BridgeOps[K]["args"], hooks?: CallHooks): Promise<BridgeOps[K]["result"]>;
}

/** Refuses (with an AgentError bad_url) a navigate URL the server's policy refuses. */
export type NavigateCheck = (url: string) => Promise<void>;

/** Reads an upload's file named by path on the server's side (server/src/bridge/uploads.ts). */
export type UploadReader = (path: string) => Promise<UploadFile>;

const noUploadFolder: UploadReader = async () => {
  throw new AgentError("bad_arguments", "this server reads no upload folder; send the file's bytes as content (base64) with path as its name");
};

/** Without a policy: the schemes an agent may open, nothing more. */
const schemeOnly: NavigateCheck = async (url) => void checkNavigableUrl(url);

export class BridgeBackend implements AgentBackend {
  constructor(
    private readonly hub: BridgeCalls,
    private readonly accountId: string,
    private readonly sessionId: string,
    private readonly checkNavigate: NavigateCheck = schemeOnly,
    private readonly readUpload: UploadReader = noUploadFolder,
  ) {}

  async tabs(): Promise<AgentTab[]> {
    return this.hub.tabs(this.accountId);
  }

  /** The extension always marks hidden text (textVisibility); it logs a capture unless internal. */
  capture(tab: string, opts?: CaptureOptions): Promise<SnapshotRequest> {
    return this.hub.call(this.accountId, this.sessionId, tab, "capture", { ...(opts?.internal ? { internal: true } : {}), ...(opts?.summary ? { summary: true } : {}) });
  }

  read(tab: string): Promise<ReadPage> {
    return this.hub.call(this.accountId, this.sessionId, tab, "read", {});
  }

  async screenshot(tab: string, marks: MarkBox[]): Promise<string> {
    return (await this.hub.call(this.accountId, this.sessionId, tab, "screenshot", { marks })).png;
  }

  /** `hooks.onProgress` hears "waiting for the person's approval"; `hooks.signal` cancels the card. */
  async act(tab: string, action: AgentAction, target: ActionTarget | null, hooks?: CallHooks, opts: ActOptions = {}): Promise<ActOutcome> {
    if (action.kind === "navigate") await this.checkNavigate(action.url);
    let args: BridgeOps["act"]["args"] = { action, target };
    if (action.kind === "upload") {
      // The bytes travel beside the action, which names only the file (for the card and the log).
      const { content, ...named } = action;
      // `content` was checked by the upload tool (core/uploads.ts inlineFile).
      const file = content !== undefined ? { name: fileNameOf(action.path), size: base64Size(content), base64: content } : await this.readUpload(action.path);
      args = { action: { ...named, path: file.name }, target, file };
    }
    if (opts.capture) args.capture = true;
    if (opts.capture && opts.summary) args.summary = true;
    if (opts.followsHiddenText !== undefined) args.followsHiddenText = opts.followsHiddenText;
    return this.hub.call(this.accountId, this.sessionId, tab, "act", args, hooks);
  }

  /** A new tab beside the one the agent works in (the person's front shared tab, else the first). */
  async openTab(url: string): Promise<AgentTab> {
    await this.checkNavigate(url);
    const tabs = await this.tabs();
    const from = tabs.find((t) => t.active) ?? tabs[0];
    if (!from) throw new AgentError("no_tab", "no tab is shared with the agent");
    return this.hub.call(this.accountId, this.sessionId, from.tab, "tab_open", { url });
  }

  async selectTab(tab: string): Promise<void> {
    await this.hub.call(this.accountId, this.sessionId, tab, "tab_select", {});
  }

  async closeTab(tab: string): Promise<void> {
    await this.hub.call(this.accountId, this.sessionId, tab, "tab_close", {});
  }

  async hiddenText(tab: string): Promise<string[]> {
    return (await this.hub.call(this.accountId, this.sessionId, tab, "hidden_text", {})).texts;
  }

  async wait(tab: string, opts: { text?: string; timeoutMs: number }): Promise<boolean> {
    const args = opts.text === undefined ? { timeoutMs: opts.timeoutMs } : { text: opts.text, timeoutMs: opts.timeoutMs };
    return (await this.hub.call(this.accountId, this.sessionId, tab, "wait", args)).found;
  }
}
