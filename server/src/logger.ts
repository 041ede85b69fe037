// Structured JSON logs (pino). API keys and secret values never reach a log line: nothing logs
// headers, bodies, tool arguments or page text (docs/security.md, "Redaction"), and these paths
// are redacted in case someone does: credentials, request bodies (a parser error carries the
// body it failed on), an agent's arguments and typed text, field values.
import { pino, type DestinationStream, type Logger } from "pino";
import type { LogLevel } from "./config.js";

export const REDACTED_PATHS = [
  "authorization", "*.authorization", "headers.authorization", "headers.cookie",
  "key", "*.key", "api_key", "*.api_key",
  "body", "*.body",
  "args", "*.args", "arguments", "*.arguments", "params", "*.params",
  "text", "*.text", "value", "*.value", "password", "*.password",
];

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "sightline" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
