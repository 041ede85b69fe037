// Trusted input and background-tab screenshots through chrome.debugger (CDP), attached only to
// tabs the person shared, once they let an agent act. Input.* events are the browser's own:
// pages that check event.isTrusted or listen only to pointer events accept them.
import { browser } from "wxt/browser";

const attached = new Set<number>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  // The person pressed "Cancel" on Chrome's debugging bar, or the tab closed.
  browser.debugger.onDetach.addListener((source) => {
    if (source.tabId !== undefined) attached.delete(source.tabId);
  });
}

export function isAttached(tabId: number): boolean {
  return attached.has(tabId);
}

export async function attach(tabId: number): Promise<void> {
  listen();
  if (attached.has(tabId)) return;
  try {
    await browser.debugger.attach({ tabId }, "1.3");
  } catch (err) {
    // Attached already (a service worker restart forgot it): that is what we want.
    if (!/already attached/i.test(String(err))) throw err;
  }
  attached.add(tabId);
}

export async function detach(tabId: number): Promise<void> {
  if (!attached.delete(tabId)) return;
  await browser.debugger.detach({ tabId }).catch(() => undefined);
}

export async function send<T = unknown>(tabId: number, method: string, params: Record<string, unknown> = {}): Promise<T> {
  return (await browser.debugger.sendCommand({ tabId }, method, params)) as T;
}

export async function mouseClick(tabId: number, x: number, y: number): Promise<void> {
  const base = { x, y, button: "left", clickCount: 1, pointerType: "mouse" };
  await send(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", x, y, button: "none", pointerType: "mouse" });
  await send(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", ...base, buttons: 1 });
  await send(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", ...base, buttons: 0 });
}

export async function insertText(tabId: number, text: string): Promise<void> {
  await send(tabId, "Input.insertText", { text });
}

/**
 * Types like a keyboard: a trusted keydown/keypress/input/keyup per character (sites that
 * listen for keys see them); characters no key makes (emoji, other scripts) and very long
 * texts go in as text input.
 */
export async function typeText(tabId: number, text: string): Promise<void> {
  if (text.length > 500) return insertText(tabId, text);
  // Every event is sent at once and awaited together: the debugger delivers one target's
  // commands in order, so this is the same key sequence in one round trip, not two per key.
  const sends: Promise<unknown>[] = [];
  for (const ch of text) {
    if (ch === "\n" || /^[\x20-\x7e]$/.test(ch)) {
      const k = keyDef(ch === "\n" ? "Enter" : ch === " " ? "Space" : ch);
      const typed = ch === "\n" ? "\r" : ch;
      const common = { key: k.key, code: k.code, windowsVirtualKeyCode: k.keyCode, nativeVirtualKeyCode: k.keyCode };
      sends.push(send(tabId, "Input.dispatchKeyEvent", { type: "keyDown", ...common, text: typed, unmodifiedText: typed }));
      sends.push(send(tabId, "Input.dispatchKeyEvent", { type: "keyUp", ...common }));
    } else sends.push(send(tabId, "Input.insertText", { text: ch }));
  }
  await Promise.all(sends);
}

interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
}

const KEYS: Record<string, KeyDef> = {
  Enter: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" },
  Tab: { key: "Tab", code: "Tab", keyCode: 9 },
  Backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
  Delete: { key: "Delete", code: "Delete", keyCode: 46 },
  Escape: { key: "Escape", code: "Escape", keyCode: 27 },
  Space: { key: " ", code: "Space", keyCode: 32, text: " " },
  ArrowUp: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  ArrowDown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  Home: { key: "Home", code: "Home", keyCode: 36 },
  End: { key: "End", code: "End", keyCode: 35 },
  PageUp: { key: "PageUp", code: "PageUp", keyCode: 33 },
  PageDown: { key: "PageDown", code: "PageDown", keyCode: 34 },
};
const PUNCTUATION: Record<string, [string, number]> = {
  ".": ["Period", 190], ">": ["Period", 190], ",": ["Comma", 188], "<": ["Comma", 188],
  "-": ["Minus", 189], _: ["Minus", 189], "=": ["Equal", 187], "+": ["Equal", 187],
  ";": ["Semicolon", 186], ":": ["Semicolon", 186], "'": ["Quote", 222], '"': ["Quote", 222],
  "/": ["Slash", 191], "?": ["Slash", 191], "\\": ["Backslash", 220], "|": ["Backslash", 220],
  "[": ["BracketLeft", 219], "{": ["BracketLeft", 219], "]": ["BracketRight", 221], "}": ["BracketRight", 221],
  "`": ["Backquote", 192], "~": ["Backquote", 192], "!": ["Digit1", 49], "@": ["Digit2", 50],
  "#": ["Digit3", 51], $: ["Digit4", 52], "%": ["Digit5", 53], "^": ["Digit6", 54],
  "&": ["Digit7", 55], "*": ["Digit8", 56], "(": ["Digit9", 57], ")": ["Digit0", 48],
};
const MODIFIERS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

/** A key definition for one key name ("Enter", "a", "F5"). */
export function keyDef(name: string): KeyDef {
  const known = KEYS[name] ?? KEYS[name === " " ? "Space" : ""];
  if (known) return known;
  if (name.length === 1) {
    const upper = name.toUpperCase();
    if (/[a-z]/i.test(name)) return { key: name, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: name };
    if (/\d/.test(name)) return { key: name, code: `Digit${name}`, keyCode: name.charCodeAt(0), text: name };
    // US layout punctuation: the key's own code (".": 46 would be the Delete key).
    const p = PUNCTUATION[name];
    return { key: name, code: p?.[0] ?? "", keyCode: p?.[1] ?? 0, text: name };
  }
  const f = /^F(\d{1,2})$/.exec(name);
  if (f) return { key: name, code: name, keyCode: 111 + Number(f[1]) };
  throw new Error(`unknown key "${name}"`);
}

/** Presses "Enter", "Control+A", "Shift+Tab"... as trusted key events. */
export async function pressKey(tabId: number, combo: string): Promise<void> {
  const parts = combo.split("+").filter(Boolean);
  const main = keyDef(parts.pop() ?? combo);
  let modifiers = 0;
  for (const m of parts) {
    const bit = MODIFIERS[m === "Ctrl" ? "Control" : m];
    if (bit === undefined) throw new Error(`unknown modifier "${m}"`);
    modifiers |= bit;
  }
  // With Control/Alt/Meta held, a character key is a shortcut, not text.
  const text = modifiers & ~8 ? undefined : main.text;
  const common = { key: main.key, code: main.code, windowsVirtualKeyCode: main.keyCode, nativeVirtualKeyCode: main.keyCode, modifiers };
  await send(tabId, "Input.dispatchKeyEvent", { type: text ? "keyDown" : "rawKeyDown", ...common, ...(text ? { text, unmodifiedText: text } : {}) });
  await send(tabId, "Input.dispatchKeyEvent", { type: "keyUp", ...common });
}

export async function captureScreenshot(tabId: number): Promise<string> {
  const { data } = await send<{ data: string }>(tabId, "Page.captureScreenshot", { format: "png" });
  return data;
}
