// React's streamed server rendering (React 18+, Next.js's App Router, Remix): the server sends
// the page's shell first and each part that was not ready later in the same response, as a
// hidden `<div id="S:n">` with a script call that moves it into its place: `$RC("B:0","S:0")`
// replaces a boundary's fallback (a spinner, a skeleton) that follows `<template id="B:0">`,
// `$RS("S:1","P:1")` fills the placeholder `<template id="P:1">`. With the page's scripts off
// (the service's first read of a URL) the calls never run: the article or the product sits
// hidden at the end of the body and the reader sees the skeleton. revealStreamed() carries out
// those calls as React's own inline runtime does, in the order the page gives them. On a page
// whose scripts ran there is nothing left to do.

/** The calls of React's inline runtime: complete a boundary (C, R with style sheets) or a segment (S). */
const CALL = /\$R([CRS])\(\s*"([^"\\]+)"\s*,\s*"([^"\\]+)"/g;
/** A comment that opens a Suspense boundary: done, pending, client-rendered, or held ("$~", React 19). */
const OPENS = new Set(["$", "$?", "$!", "$~"]);

type Step = [kind: string, target: string, content: string];

/** React's instructions, in document order: inline scripts, and the templates of its external runtime. */
function instructions(doc: Document): Step[] {
  const steps: Step[] = [];
  for (const el of Array.from(doc.querySelectorAll("script:not([src]), template[data-rci], template[data-rri], template[data-rsi]"))) {
    if (el.localName === "template") {
      const kind = el.hasAttribute("data-rsi") ? "S" : "C";
      const target = el.getAttribute(kind === "S" ? "data-sid" : "data-bid");
      const content = el.getAttribute(kind === "S" ? "data-pid" : "data-sid");
      if (target && content) steps.push([kind, target, content]);
      continue;
    }
    const text = el.textContent ?? "";
    if (!text.includes("$R")) continue;
    for (const m of text.matchAll(CALL)) steps.push([m[1], m[2], m[3]]);
  }
  return steps;
}

/** $RC: the boundary's fallback, from its template to the matching `<!--/$-->`, gives way to the content. */
function completeBoundary(doc: Document, boundaryId: string, contentId: string): boolean {
  const content = doc.getElementById(contentId);
  const template = doc.getElementById(boundaryId);
  const parent = template?.parentNode;
  if (!content || !template || !parent) return false;
  const opening = template.previousSibling;
  let node: ChildNode | null = template;
  let depth = 0;
  while (node) {
    if (node.nodeType === 8) {
      const data = (node as Comment).data;
      if (data === "/$") {
        if (depth === 0) break;
        depth--;
      } else if (OPENS.has(data)) depth++;
    }
    const next: ChildNode | null = node.nextSibling;
    parent.removeChild(node);
    node = next;
  }
  content.remove();
  while (content.firstChild) parent.insertBefore(content.firstChild, node);
  if (opening?.nodeType === 8) (opening as Comment).data = "$";
  return true;
}

/** $RS: the segment's nodes take the placeholder's place. */
function completeSegment(doc: Document, segmentId: string, placeholderId: string): boolean {
  const segment = doc.getElementById(segmentId);
  const placeholder = doc.getElementById(placeholderId);
  const parent = placeholder?.parentNode;
  if (!segment || !placeholder || !parent) return false;
  segment.remove();
  while (segment.firstChild) parent.insertBefore(segment.firstChild, placeholder);
  placeholder.remove();
  return true;
}

/** Carries out React's pending streaming instructions; returns how many parts were moved into place. */
export function revealStreamed(doc: Document = document): number {
  // Cheap test first: most pages hold no hidden segment.
  if (!doc.querySelector('div[hidden][id^="S:"]')) return 0;
  let moved = 0;
  for (const [kind, target, content] of instructions(doc)) {
    try {
      if (kind === "S" ? completeSegment(doc, target, content) : completeBoundary(doc, target, content)) moved++;
    } catch {
      /* a malformed part stays hidden; the others go on */
    }
  }
  return moved;
}
