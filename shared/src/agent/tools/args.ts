// Arguments several tools take, described once.
import { z } from "zod";

export const tabArg = z.string().optional().describe("Tab handle from `tabs`; default: the active shared tab");
export const idArg = z.number().int().nonnegative().describe("Element id from the last snapshot");
