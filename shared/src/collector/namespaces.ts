// Element namespaces the collector tests (an <a> or <title> inside SVG is not the HTML one).
export const HTML_NS = "http://www.w3.org/1999/xhtml";
export const SVG_NS = "http://www.w3.org/2000/svg";
