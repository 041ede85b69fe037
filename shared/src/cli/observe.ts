// `sightline observe URL`: the server renders the page (POST /v1/observe).
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import type { ObserveRequest } from "../contract/index.js";
import { Sightline } from "../client/sightline.js";
import { CliError, EXIT } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import { oneOf, oneUrl, parsed, positiveInt, seconds } from "./parse.js";
import { observeTable } from "./table.js";

export const OBSERVE_USAGE = `usage: sightline observe URL [options]

Asks the Sightline server to render URL (POST /v1/observe).

  --mode read|map|visual    read: page content (default); map: interactive elements;
                            visual: screenshot + elements
  --format markdown|text    read mode output (default markdown)
  --limit N                 at most N elements (map, visual)
  --quality performance|precision   map-mode engine (precision costs 10 credits)
  --content-limit N         at most N characters of content (read)
  --out FILE                read: write the content to FILE; visual: save the screenshot
                            to FILE; map: write the table (or --json) to FILE
  --json                    print the raw JSON response
  --timeout SECONDS         client timeout (default 60)
  -q, --quiet               no progress on stderr`;

// The contract's lists (contract/observe.ts), repeated here so that parsing flags does not load zod.
const OBSERVE_MODES = ["read", "map", "visual"] as const;
const READ_FORMATS = ["markdown", "text"] as const;
const RENDER_QUALITIES = ["performance", "precision"] as const;

const OPTIONS = {
  mode: { type: "string" },
  format: { type: "string" },
  limit: { type: "string" },
  quality: { type: "string" },
  "content-limit": { type: "string" },
  out: { type: "string", short: "o" },
  json: { type: "boolean" },
  timeout: { type: "string" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
} as const;

export function requireKey(io: CliIo): string {
  if (io.settings.apiKey) return io.settings.apiKey;
  throw new CliError(
    "SIGHTLINE_API_KEY is not set. Export the key `npm start` printed (or create one with `npm run admin -- create-key`).",
    EXIT.auth,
  );
}

export async function observeCommand(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parsed(() => parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true }), OBSERVE_USAGE);
  if (values.help) return io.out(`${OBSERVE_USAGE}\n`);
  const url = oneUrl(positionals, OBSERVE_USAGE);
  const mode = oneOf(values.mode, OBSERVE_MODES, "--mode") ?? "read";
  const format = oneOf(values.format, READ_FORMATS, "--format");
  const limit = positiveInt(values.limit, "--limit");
  const quality = oneOf(values.quality, RENDER_QUALITIES, "--quality");
  const contentLimit = positiveInt(values["content-limit"], "--content-limit");
  const timeoutMs = seconds(values.timeout, "--timeout") ?? 60_000;
  const out = values.out ? resolve(io.cwd, values.out) : undefined;

  const req: ObserveRequest = { url, mode };
  if (format) req.format = format;
  const options: NonNullable<ObserveRequest["options"]> = {};
  if (limit) options.limit = limit;
  if (quality) options.render_quality = quality;
  if (contentLimit) options.contentLimit = contentLimit;
  // Saving a screenshot needs its bytes; without --out a link is enough.
  if (mode === "visual") options.screenshot_delivery = out ? "base64" : "url";
  if (Object.keys(options).length) req.options = options;

  const client = new Sightline({
    baseUrl: io.settings.baseUrl,
    apiKey: requireKey(io),
    timeoutMs,
    onRetry: (r) => io.progress.update(`rate limited (${r.status}); retrying in ${Math.ceil(r.delayMs / 1000)} s`),
  });
  io.progress.update(`observing ${url} (${mode})`);
  const res = await client.observe(req);
  io.progress.stop();

  if (values.json) {
    const json = `${JSON.stringify(res, null, 2)}\n`;
    if (out && mode !== "visual") {
      await writeFile(out, json);
      io.err(`saved JSON to ${out}\n`);
    } else io.out(json);
    return;
  }
  if (mode === "read") {
    // Read mode keeps the title apart from the main content (as Readability does); a person
    // reading the Markdown gets it back as the first heading.
    const body = res.content ?? "";
    const title = (res.title ?? "").trim();
    const content = format !== "text" && title && !body.trimStart().startsWith("# ") ? `# ${title}\n\n${body}` : body;
    if (out) {
      await writeFile(out, content.endsWith("\n") ? content : `${content}\n`);
      io.err(`saved ${format ?? "markdown"} (${content.length} characters) to ${out}\n`);
    } else io.out(content.endsWith("\n") ? content : `${content}\n`);
  } else {
    const table = `${observeTable(res.interactable_elements ?? [])}\n`;
    if (mode === "map" && out) {
      await writeFile(out, table);
      io.err(`saved ${res.interactable_elements?.length ?? 0} elements to ${out}\n`);
    } else io.out(table);
    const shot = res.screenshot;
    if (mode === "visual" && shot) {
      if (out) {
        if (!shot.data) throw new CliError("the server sent no screenshot data", EXIT.server);
        const bytes = Buffer.from(shot.data, "base64");
        await writeFile(out, bytes);
        io.err(`saved ${shot.format} screenshot (${bytes.length} bytes) to ${out}\n`);
      } else if (shot.url) {
        io.out(`screenshot: ${shot.url}${shot.expires_at ? ` (expires ${shot.expires_at})` : ""}\n`);
      }
    }
  }
  const credits = res.credits_remaining !== undefined ? `, ${res.credits_remaining} left` : "";
  io.err(`${res.credits_used} credit${res.credits_used === 1 ? "" : "s"} used${credits}\n`);
}
