// GET /openapi.json: the OpenAPI 3.1 document, built once from the contract's schemas.
import type { AppDeps, AppRouter } from "../koa-types.js";
import { buildOpenApi } from "../openapi.js";
import { VERSION } from "../version.js";

export function registerOpenApi(router: AppRouter, _deps: AppDeps): void {
  let doc: string | null = null;
  router.get("/openapi.json", (ctx) => {
    doc ??= JSON.stringify(buildOpenApi(VERSION));
    ctx.type = "application/json";
    ctx.body = doc;
  });
}
