// Set-of-mark boxes for screenshots: a numbered outline per element, drawn in a closed shadow
// root so page styles cannot touch it. Password, one-time-code and card fields are covered
// with an opaque box, so their values never reach a screenshot.
import { secretField as secret } from "./describe.js";

const HOST = "sightline-marks";

export function clearMarks(): void {
  document.querySelectorAll(HOST).forEach((n) => n.remove());
}

export function showMarks(args: { marks: { id: number; x: number; y: number; width: number; height: number }[] }): number {
  clearMarks();
  const host = document.createElement(HOST);
  host.style.cssText = "position:fixed;inset:0;z-index:2147483647;pointer-events:none;display:block";
  const root = host.attachShadow({ mode: "closed" });
  const add = (css: string, text = "") => {
    const d = document.createElement("div");
    d.style.cssText = css;
    d.textContent = text;
    root.appendChild(d);
  };
  for (const el of Array.from(document.querySelectorAll("input"))) {
    if (!secret(el) || !el.value) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) add(`position:fixed;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;background:#555`);
  }
  const colours = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080"];
  for (const m of args.marks) {
    const c = colours[m.id % colours.length];
    add(`position:fixed;left:${m.x}px;top:${m.y}px;width:${m.width}px;height:${m.height}px;outline:2px solid ${c};box-sizing:border-box`);
    add(`position:fixed;left:${m.x}px;top:${Math.max(0, m.y - 14)}px;background:${c};color:#fff;font:bold 11px/14px sans-serif;padding:0 3px`, String(m.id));
  }
  document.documentElement.appendChild(host);
  return args.marks.length;
}
