// @sightline/shared/agent/bridge: the server ↔ extension protocol, and the backend a server's
// agent session works through (every call a bridge call to the extension that shared the tab).
// Isomorphic: both ends import it.
export * from "./protocol.js";
export { BridgeBackend, type BridgeCalls, type NavigateCheck, type UploadReader } from "./backend.js";
