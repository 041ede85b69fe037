/** The MCP server's version, reported in initialize (the package version). */
export const SIGHTLINE_MCP_VERSION = "0.1.0";
