// The text of the bridge frame each capture arrived in, kept beside the parsed capture for as
// long as the capture is alive, so refining it on a worker thread sends the frame's text (a
// string copy) rather than a structured clone of a 50,000-element object graph.
/** Where a capture is in its frame: the result's `data`, or `data.capture` (an act's answer). */
export interface CaptureFrame {
  frame: string;
  key?: "capture";
}

const frames = new WeakMap<object, CaptureFrame>();

export function rememberFrame(capture: object, frame: string, key?: "capture"): void {
  frames.set(capture, key ? { frame, key } : { frame });
}

/** The frame `capture` arrived in, when it came over the bridge. */
export function frameOf(capture: object): CaptureFrame | undefined {
  return frames.get(capture);
}
