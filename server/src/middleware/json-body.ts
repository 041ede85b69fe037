// JSON request bodies (koa-bodyparser) with the configured size limit. Every body on the API is
// read as JSON whatever its Content-Type (curl -d sends form encoding by default), and parser
// failures become contract errors: 400 "Invalid JSON payload: …", 413 over the limit.
// `__proto__` keys are refused by the parser (@hapi/bourne, see http/json.ts), so they can never pollute.
import bodyParser from "koa-bodyparser";
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import type { AppMiddleware } from "../koa-types.js";
import { invalidJson } from "../http/json.js";

interface ParserError extends Error {
  type?: string;
  status?: number;
  body?: unknown;
}

export function toContractError(err: ParserError, limitBytes: number): ContractError {
  switch (err.type) {
    case "entity.too.large":
      return new ContractError(
        "payload_too_large",
        ERROR_NAMES.tooLarge,
        `${ERROR_NAMES.tooLarge}: the body exceeds the limit of ${limitBytes} bytes`,
      );
    case "encoding.unsupported":
    case "charset.unsupported":
      return new ContractError("unsupported_media_type", ERROR_NAMES.unsupportedMediaType, `${ERROR_NAMES.unsupportedMediaType}: ${err.message}`);
    case "request.aborted":
      return invalidJson("the request body was cut short");
    case "request.size.invalid":
      return invalidJson("the body length does not match Content-Length");
  }
  if (err instanceof SyntaxError || err.status === 400) return invalidJson(err.message);
  return invalidJson(err.message || "unreadable body");
}

export function jsonBody(limitBytes: number): AppMiddleware {
  const parse = bodyParser({
    enableTypes: ["json"],
    jsonLimit: `${limitBytes}b`,
    strict: true,
    detectJSON: () => true,
    onerror: (err) => {
      throw toContractError(err as ParserError, limitBytes);
    },
  });
  return parse as unknown as AppMiddleware;
}

