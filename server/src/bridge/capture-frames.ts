// The text of the bridge frame each capture arrived in, kept beside the parsed capture for as
// long as the capture is alive, so refining it on a worker thread sends the frame's text (a
// string copy) rather than a structured clone of a 50,000-element object graph.
const frames = new WeakMap<object, string>();

export function rememberFrame(capture: object, frame: string): void {
  frames.set(capture, frame);
}

/** The frame `capture` arrived in, when it came over the bridge. */
export function frameOf(capture: object): string | undefined {
  return frames.get(capture);
}
