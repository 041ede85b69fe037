// @sightline/shared/agent/perform: one action from element id to outcome, on any PageDriver
// (Playwright in headless Chromium, chrome.debugger in the person's tab), and the page work
// every backend does the same way (screenshots with marks, waiting, listener marks over CDP).
// Isomorphic.
export { performAction, type PerformOptions } from "./perform.js";
export { isNavigationError, type PageDriver } from "./driver.js";
export { PAGE_AGENT_GLOBAL, type PageCalls, type PageCallName, type PageCallArgs, type PageCallResult, type LocateArgs, type TargetPoint, type SelectResult, type TargetFacts, type FormFacts } from "./page-calls.js";
export { screenshotWithMarks, waitOnPage } from "./page-ops.js";
export { markListeners, LISTENER_MARK_EVENT, LISTENER_REQUEST_EVENT, LISTENER_MARKS_END, CLICK_LIKE_EVENTS, MAX_MARKED, type CdpSend } from "./listener-marks.js";
// Stale ids have one home (../session/stale.ts); the extension says "stale" with it too.
export { staleError, isStale } from "../session/stale.js";
