// IIFE entry (dist/page-agent.js): defines the page agent global in the world it is injected
// into. Injected again into the same document, it replaces the previous copy.
import { PAGE_AGENT_GLOBAL } from "../perform/page-calls.js";
import { pageAgent } from "./index.js";

Object.defineProperty(globalThis, PAGE_AGENT_GLOBAL, { value: pageAgent, enumerable: false, configurable: true });
