// Element checks that hold in every realm. An element of a same-origin frame belongs to the
// frame's window: `el instanceof HTMLInputElement` (this window's class) is false for it, so a
// text field in a frame "did not take text" and a select there was "not a select". These go by
// node type, namespace and tag name instead.
const HTML_NS = "http://www.w3.org/1999/xhtml";

function isHtml(e: unknown, tag?: string): boolean {
  const el = e as Element | null | undefined;
  return !!el && el.nodeType === 1 && el.namespaceURI === HTML_NS && (tag === undefined || el.localName === tag);
}

export const isHTMLElement = (e: unknown): e is HTMLElement => isHtml(e);
export const isInput = (e: unknown): e is HTMLInputElement => isHtml(e, "input");
export const isTextArea = (e: unknown): e is HTMLTextAreaElement => isHtml(e, "textarea");
export const isSelect = (e: unknown): e is HTMLSelectElement => isHtml(e, "select");
export const isButton = (e: unknown): e is HTMLButtonElement => isHtml(e, "button");
export const isForm = (e: unknown): e is HTMLFormElement => isHtml(e, "form");

/** The focused element, through open shadow roots (a document's activeElement is the shadow host). */
export function deepActive(doc: Document): Element | null {
  let a: Element | null = doc.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}
