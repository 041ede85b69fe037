// The server's log redacts what could carry a secret if someone ever logged it: credentials,
// request bodies (a parser error keeps the body it failed on), an agent's arguments and typed text.
import { expect, test } from "vitest";
import { createLogger } from "../src/logger.js";

test("keys, bodies, tool arguments and typed text are redacted, top level and one level down", () => {
  const lines: string[] = [];
  const log = createLogger("info", { write: (l: string) => void lines.push(l) });
  const parseError = Object.assign(new Error("Unexpected token"), { body: '{"text":"hunter2-body"}', status: 400 });
  log.error({ err: parseError, authorization: "Bearer sk-key-1" }, "unhandled error");
  log.info({ call: { args: { action: { kind: "type", text: "hunter2-args" } } }, text: "hunter2-text", field: { value: "hunter2-value" } }, "call");
  log.info({ params: { arguments: { text: "hunter2-params" } }, password: "hunter2-pw", key: "sk-key-2" }, "rpc");
  const all = lines.join("\n");
  expect(lines).toHaveLength(3);
  for (const secret of ["hunter2-body", "hunter2-args", "hunter2-text", "hunter2-value", "hunter2-params", "hunter2-pw", "sk-key-1", "sk-key-2"]) expect(all).not.toContain(secret);
  // What a log line is for stays readable.
  expect(JSON.parse(lines[0])).toMatchObject({ msg: "unhandled error", err: { message: "Unexpected token", body: "[redacted]" } });
});
