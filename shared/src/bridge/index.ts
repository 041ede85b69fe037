// @sightline/shared/bridge: the server ↔ extension protocol. Isomorphic.
export * from "./protocol.js";
