// @sightline/shared/mcp (Node): the transports of Sightline's MCP server: stdio on a headless
// Chromium of this machine, and the stdio relay to a server's POST /mcp. The tools and the
// session they run on are @sightline/shared/agent.
export { relayToServer, STRUCTURED_HEADER, type RelayOptions } from "./proxy.js";
export { serveHeadless, type HeadlessServeOptions } from "./stdio.js";
