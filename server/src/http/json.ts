// The API's JSON body rules in one place, shared by the body-parser middleware (/v1/observe)
// and the snapshot workers (which parse /v1/snapshot bodies off the main thread): bodies must
// be a JSON object or array ("strict", as koa-bodyparser's co-body), `__proto__` keys are
// refused (@hapi/bourne, the parser co-body uses), and every failure is a contract 400.
import bourne from "@hapi/bourne";
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";

export const invalidJson = (detail: string) =>
  new ContractError("bad_request", ERROR_NAMES.invalidJson, `${ERROR_NAMES.invalidJson}: ${detail.slice(0, 200)}`);

const STRICT_START = /^[\x20\x09\x0a\x0d]*[[{]/;

/** Parses a request body as the API does; an empty body is `{}` (then "Missing required field"). */
export function parseJsonText(text: string): unknown {
  if (text === "") return {};
  if (!STRICT_START.test(text)) throw invalidJson("invalid JSON, only supports object and array");
  try {
    return bourne.parse(text, { protoAction: "error" });
  } catch (err) {
    throw invalidJson(err instanceof Error ? err.message : String(err));
  }
}
