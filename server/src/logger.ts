// Structured JSON logs (pino). API keys never reach a log line: nothing logs headers or
// bodies, and these paths are redacted in case someone does.
import { pino, type DestinationStream, type Logger } from "pino";
import type { LogLevel } from "./config.js";

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "sightline" },
    redact: { paths: ["authorization", "*.authorization", "headers.authorization", "key", "api_key"], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
