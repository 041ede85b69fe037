// @sightline/shared/mcp (Node): Sightline's MCP server: the tools, the headless backend, the
// stdio entry points and the relay to a server's POST /mcp.
export { createMcpServer, type McpServerOptions, type ToolCosts } from "./tools.js";
export { HeadlessBackend, type HeadlessOptions } from "./headless.js";
export { localRefine } from "./refine.js";
export { relayToServer, type RelayOptions } from "./proxy.js";
export { serveHeadless, type HeadlessServeOptions } from "./stdio.js";
export { SIGHTLINE_MCP_VERSION } from "./version.js";
