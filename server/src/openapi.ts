// The OpenAPI 3.1 document, generated from the contract's zod schemas (z.toJSONSchema), so the
// published docs are the validators the server runs and cannot drift from them.
import { z } from "zod";
import {
  ErrorBodySchema,
  ERROR_CODES,
  ObserveRequestSchema,
  ObserveResponseSchema,
  RawElementSchema,
  RefinedElementSchema,
  SnapshotRequestSchema,
  SnapshotResponseSchema,
  SNAPSHOT_DEFAULT_LIMIT,
  type ErrorCode,
} from "@sightline/shared/contract";

type Json = Record<string, unknown>;

const SCHEMAS: Record<string, z.ZodType> = {
  SnapshotRequest: SnapshotRequestSchema,
  RawElement: RawElementSchema,
  SnapshotResponse: SnapshotResponseSchema,
  RefinedElement: RefinedElementSchema,
  ObserveRequest: ObserveRequestSchema,
  ObserveResponse: ObserveResponseSchema,
  ErrorBody: ErrorBodySchema,
};

function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SCHEMAS)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  for (const s of Object.values(out.schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return out.schemas;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: Json) => ({ "application/json": { schema } });

const ERROR_TEXT: Partial<Record<ErrorCode, string>> = {
  bad_request: "Invalid JSON (`Invalid JSON payload: …`) or invalid fields (`Missing required field`, `Invalid element format`, `Invalid viewport dimensions`, …)",
  unauthorized: "Missing or invalid API key",
  insufficient_credits: "Not enough credits left",
  forbidden: "Account inactive",
  misdirected_request: "`Misdirected request`: the Host header is not a name this server answers to (SIGHTLINE_ALLOWED_HOSTS)",
  payload_too_large: "Body over the server's limit (default 10 MB)",
  rate_limited: "`Rate limit exceeded`: the key's token bucket is empty; retry after `Retry-After` seconds",
  internal_error: "Unexpected server failure (nothing is charged)",
  render_failed: "The page could not be rendered",
  service_unavailable: "Busy: no browser free; retry later",
  timeout: "Rendering timed out",
};

function errorResponses(codes: ErrorCode[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const code of codes) {
    const r: Json = { description: `${code}: ${ERROR_TEXT[code] ?? code}`, content: json(ref("ErrorBody")) };
    if (code === "rate_limited") r.headers = { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } };
    out[String(ERROR_CODES[code])] = r;
  }
  return out;
}

const common: ErrorCode[] = ["bad_request", "unauthorized", "insufficient_credits", "forbidden", "misdirected_request", "payload_too_large", "rate_limited", "internal_error"];

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", minLength: 1, maxLength: 255 },
  description:
    "Makes a retry safe: the same key (per API key, kept 24 h) with the same request returns the first answer or its error, marked `Idempotent-Replayed: true`, and is charged once. Reused with a different request: 400.",
} as const;

const READY = {
  type: "object",
  properties: {
    status: { enum: ["ready", "not_ready"] },
    ledger: { enum: ["file", "postgres"] },
    database: { type: "string" },
    browser: { type: "string" },
    version: { type: "string" },
  },
  required: ["status", "database", "browser"],
} as const;

export function buildOpenApi(version: string): Json {
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Sightline Observation API",
      version,
      description:
        "Turns web pages into data for AI agents. Every /v1 request carries `Authorization: Bearer <API_KEY>` and spends credits. Error bodies: `status`, `error`, `message`, `error_code`, `credits_remaining` (when the key is known), `request_id`.",
    },
    security: [{ bearerAuth: [] }],
    paths: {
      "/v1/snapshot": {
        post: {
          operationId: "snapshot",
          summary: "Refine raw element geometry into a ranked, compact element list (1 credit)",
          description: `\`options.limit\` defaults to ${SNAPSHOT_DEFAULT_LIMIT} and is capped server-side (SIGHTLINE_SNAPSHOT_CAP, default 100). On errors, \`error\` is the full message.`,
          parameters: [IDEMPOTENCY_KEY],
          requestBody: { required: true, content: json(ref("SnapshotRequest")) },
          responses: { "200": { description: "Refined elements", content: json(ref("SnapshotResponse")) }, ...errorResponses(common) },
        },
      },
      "/v1/observe": {
        post: {
          operationId: "observe",
          summary: "Legacy: render a URL and return Markdown, an element map or a screenshot (1–10 credits)",
          description: "On errors, `error` is the short name (spec 7.1) and `message` explains.",
          parameters: [IDEMPOTENCY_KEY],
          requestBody: { required: true, content: json(ref("ObserveRequest")) },
          responses: {
            "200": { description: "Observation", content: json(ref("ObserveResponse")) },
            ...errorResponses([...common, "render_failed", "service_unavailable", "timeout"]),
          },
        },
      },
      "/v1/screenshots/{id}": {
        get: {
          operationId: "screenshot",
          summary: "A screenshot from observe visual mode (the signed link in `screenshot.url`; valid 24 hours)",
          description: "The link is the credential: no API key, the `expires` and `sig` query parameters are checked instead.",
          security: [],
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "expires", in: "query", required: true, schema: { type: "string" }, description: "Expiry, ms since the epoch" },
            { name: "sig", in: "query", required: true, schema: { type: "string" }, description: "HMAC signature of id and expiry" },
          ],
          responses: {
            "200": { description: "The image", content: { "image/png": {}, "image/jpeg": {} } },
            "403": { description: "forbidden: altered or expired link", content: json(ref("ErrorBody")) },
            "404": { description: "not_found: no longer stored", content: json(ref("ErrorBody")) },
          },
        },
      },
      "/health": {
        get: {
          operationId: "health",
          summary: "Liveness for load balancers (no auth)",
          security: [],
          responses: {
            "200": {
              description: "Up",
              content: json({ type: "object", properties: { status: { const: "ok" }, version: { type: "string" }, uptime_s: { type: "number" } }, required: ["status"] }),
            },
          },
        },
      },
      "/ready": {
        get: {
          operationId: "ready",
          summary: "Readiness for load balancers (no auth): the ledger's database answers and a browser is reachable",
          security: [],
          responses: {
            "200": { description: "Ready", content: json(READY) },
            "503": { description: "Not ready: `database` or `browser` says what is missing", content: json(READY) },
          },
        },
      },
      "/openapi.json": {
        get: { operationId: "openapi", summary: "This document (no auth)", security: [], responses: { "200": { description: "OpenAPI 3.1 document" } } },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "API key from `npm run admin -- create-key`" } },
      schemas: componentSchemas(),
    },
  };
}
