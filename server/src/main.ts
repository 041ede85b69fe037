// `npm start`: runs the server from the environment, prints its URL and a development key,
// and shuts down cleanly (ledger flushed) on SIGINT/SIGTERM.
import { ConfigError } from "./config.js";
import { ensureDevKey } from "./dev-key.js";
import { startServer, type RunningServer } from "./server.js";

let server: RunningServer | undefined;
let stopping = false;

/** SIGINT/SIGTERM: stop accepting, finish in-flight requests, flush the ledger, exit 0. */
function stop(signal: string): void {
  if (stopping) return;
  stopping = true;
  if (!server) process.exit(0); // still starting: nothing in flight (ledger writes are atomic)
  server.logger.info({ signal }, "shutting down");
  server.close().then(
    () => process.exit(0),
    (err: unknown) => {
      server?.logger.error({ err }, "shutdown failed");
      process.exit(1);
    },
  );
}

async function main(): Promise<void> {
  // Handlers first, so a signal that arrives while we start is never the default (abrupt) kill.
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  server = await startServer();
  server.warmUp();
  const { config, logger } = server;
  logger.info({ origin: server.origin, data_dir: config.dataDir }, "listening");

  const lines = [`Sightline is listening on ${server.origin}  (data: ${config.dataDir})`];
  if (config.devKey) {
    const dev = await ensureDevKey(server.ledger, config.dataDir, config.devKeyCredits);
    lines.push(
      `Development API key (${dev.created ? "new" : "kept in the data dir"}, ${dev.credits} credits left):`,
      `  ${dev.key}`,
      `Try it:`,
      `  curl -s ${server.origin}/v1/snapshot -H 'Authorization: Bearer ${dev.key}' -H 'Content-Type: application/json' \\`,
      `    -d '{"url":"https://example.com","raw_elements":[{"id":1,"tag":"button","text":"Buy","rect":{"x":10,"y":10,"width":80,"height":30}}]}'`,
    );
  }
  lines.push(`API description: ${server.origin}/openapi.json   ·   stop with Ctrl-C`);
  process.stdout.write(`\n${lines.join("\n")}\n\n`);
}

main().catch((err: unknown) => {
  const msg = err instanceof ConfigError ? `configuration error: ${err.message}` : err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`sightline: ${msg}\n`);
  process.exit(1);
});
