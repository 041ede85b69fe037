// The built server (server/dist/main.js) as a child process, and a keep-alive HTTP client.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../../server/dist/main.js", import.meta.url));
const ECHO = fileURLToPath(new URL("./json-echo.mjs", import.meta.url));

export interface ServerProcess {
  origin: string;
  key: string;
  pid: number;
  stop(): Promise<void>;
}

/** `main`: another build's server/dist/main.js, to compare two builds side by side. */
export function startServerProcess(dataDir: string, env: Record<string, string> = {}, main = MAIN): Promise<ServerProcess> {
  const proc = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      SIGHTLINE_DATA_DIR: dataDir,
      SIGHTLINE_RATE_LIMIT: "0",
      SIGHTLINE_DEV_CREDITS: "100000000",
      SIGHTLINE_LOG_LEVEL: process.env.SIGHTLINE_LOG_LEVEL ?? "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const origin = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
      const key = /^\s+(sl_[\w-]+)\s*$/m.exec(out)?.[1];
      if (origin && key && out.includes("openapi.json")) {
        proc.stdout.removeAllListeners("data");
        proc.stdout.resume();
        resolve({
          origin,
          key,
          pid: proc.pid!,
          stop: () =>
            new Promise<void>((r) => {
              proc.removeAllListeners("exit");
              proc.once("exit", () => r());
              proc.kill("SIGTERM");
            }),
        });
      }
    });
  });
}

/** json-echo.mjs as a child process: the HTTP floor (parse + stringify behind bare node:http). */
export function startEchoProcess(): Promise<{ origin: string; stop(): void }> {
  const proc = spawn(process.execPath, [ECHO], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`json-echo exited ${code}`)));
    proc.stdout.once("data", (d: Buffer) => {
      const origin = /listening on (http:\/\/[\d.:]+)/.exec(d.toString())?.[1];
      if (!origin) return reject(new Error(`json-echo: ${d}`));
      proc.removeAllListeners("exit");
      resolve({ origin, stop: () => void proc.kill("SIGTERM") });
    });
  });
}

export class Client {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 64 });
  constructor(
    readonly origin: string,
    readonly key: string,
  ) {}

  /** `timing`: the response's Server-Timing header ("" when absent). */
  post(body: string, path = "/v1/snapshot", method = "POST"): Promise<{ status: number; body: string; timing: string }> {
    return new Promise((resolve, reject) => {
      const buf = Buffer.from(body);
      const req = request(
        `${this.origin}${path}`,
        { method, agent: this.#agent, headers: { authorization: `Bearer ${this.key}`, "content-type": "application/json", "content-length": buf.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), timing: String(res.headers["server-timing"] ?? "") }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(buf);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
