// Every MCP tool, in the order clients list them. A new tool is one definition in its group's
// file and one line here; docs/mcp.md's table follows (npm run docs:mcp, checked by a test).
import type { ToolDefinition } from "./define.js";
import { read, screenshot, snapshot, tabs, wait } from "./observe.js";
import { click, press, scroll, select, type } from "./act.js";
import { back, forward, navigate } from "./navigate.js";
import { drag, hover } from "./pointer.js";
import { dialog } from "./dialogs.js";
import { fillForm } from "./forms.js";
import { upload } from "./files.js";
import { find } from "./find.js";
import { tabClose, tabOpen, tabSelect } from "./tabs.js";

export const TOOLS: readonly ToolDefinition[] = [
  tabs, snapshot, read, screenshot, click, type, select, press, scroll, navigate, back, wait,
  // The tools real tasks need (issue 33).
  hover, drag, fillForm, dialog, forward, upload, find, tabOpen, tabSelect, tabClose,
] as ToolDefinition[];

export { defineTool, type ToolAnswer, type ToolContext, type ToolDefinition } from "./define.js";
export { API_PRICES, LOCAL_PRICES, REST_TWIN, priceNote, type PriceList } from "./prices.js";
export { answerText, dialogLines, downloadLine } from "./act.js";
export { toolTable } from "./doc.js";
