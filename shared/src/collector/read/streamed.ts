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

/** A boundary (C) or a segment (S) to complete: the hidden part's id and the id of the place it goes. */
type Step = [kind: "C" | "S", partId: string, placeId: string];

/**
 * React's inline calls, in document order. (Its external runtime, an opt-in that writes the same
 * steps as `<template data-rci>` elements, is not read: no tuning, AEB or Readability page of the corpora uses it.)
 */
function instructions(doc: Document): Step[] {
  const steps: Step[] = [];
  for (const script of Array.from(doc.querySelectorAll("script:not([src])"))) {
    const text = script.textContent ?? "";
    if (!text.includes("$R")) continue;
    // $RS(segment, placeholder); $RC(boundary, content) and $RR(boundary, content, styles).
    for (const [, k, a, b] of text.matchAll(CALL)) steps.push(k === "S" ? ["S", a, b] : ["C", b, a]);
  }
  return steps;
}

/** The hidden part's nodes go in before `before`, and the emptied part leaves the document. */
function moveInto(part: Element, parent: ParentNode, before: ChildNode | null): void {
  part.remove();
  while (part.firstChild) parent.insertBefore(part.firstChild, before);
}

/** $RC: the boundary's fallback, from its template to the matching `<!--/$-->`, gives way to the content. */
function completeBoundary(content: Element, template: Element, parent: ParentNode): void {
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
  moveInto(content, parent, node);
  if (opening?.nodeType === 8) (opening as Comment).data = "$";
}

/** $RS: the segment's nodes take the placeholder's place. */
function completeSegment(segment: Element, placeholder: Element, parent: ParentNode): void {
  moveInto(segment, parent, placeholder);
  placeholder.remove();
}

/** Carries out React's pending streaming instructions; returns how many parts were moved into place. */
export function revealStreamed(doc: Document = document): number {
  // Cheap test first: most pages hold no hidden segment.
  if (!doc.querySelector('div[hidden][id^="S:"]')) return 0;
  let moved = 0;
  for (const [kind, partId, placeId] of instructions(doc)) {
    const part = doc.getElementById(partId);
    const place = doc.getElementById(placeId);
    const parent = place?.parentNode;
    if (!part || !place || !parent) continue; // already moved, or never sent
    try {
      if (kind === "S") completeSegment(part, place, parent);
      else completeBoundary(part, place, parent);
      moved++;
    } catch {
      /* a malformed part stays hidden; the others go on */
    }
  }
  return moved;
}
