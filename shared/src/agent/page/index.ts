// The page agent: what acting on a page needs inside it (find an element by the collector's
// id, hit-test it, DOM fallbacks, change watching). Browser code, shipped as the IIFE bundle
// dist/page-agent.js and injected into the same world as the collector.
import type { PageCalls } from "../perform/page-calls.js";
import { locate } from "./locate.js";
import { domClick, focus, scrollBy, selectOption, submitForm } from "./controls.js";
import { clearMarks, showMarks } from "./marks.js";
import { hiddenText } from "./hidden-text.js";
import { hasText, watchSettle, watchStart } from "./watch.js";
import { describe } from "./describe.js";
import { checkedState } from "./fields.js";

export const pageAgent: PageCalls = {
  locate,
  domClick,
  focus,
  selectOption,
  scrollBy,
  watchStart,
  watchSettle,
  hasText,
  submitForm,
  showMarks,
  clearMarks,
  hiddenText,
  describe,
  checkedState,
};
export { elementById } from "./locate.js";
