// A one-line progress indicator on stderr, drawn only when stderr is a terminal, so pipes,
// logs and tests see nothing but the final output.

export interface Progress {
  update(text: string): void;
  stop(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function progress(stream: NodeJS.WriteStream & { isTTY?: boolean }, enabled: boolean): Progress {
  if (!enabled || !stream.isTTY) return { update: () => undefined, stop: () => undefined };
  let text = "";
  let i = 0;
  const draw = () => stream.write(`\r\x1b[2K${FRAMES[i++ % FRAMES.length]} ${text}`);
  const timer = setInterval(draw, 80);
  timer.unref();
  return {
    update(t) {
      text = t;
      draw();
    },
    stop() {
      clearInterval(timer);
      stream.write("\r\x1b[2K");
    },
  };
}
