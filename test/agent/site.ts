// The agent fixtures on a loopback server that also records form submissions (POST /submit),
// so a test can check what a page really received.
import { fileURLToPath } from "node:url";
import { serveStatic, type StaticServer } from "../support/static-server.js";

export interface AgentSite extends StaticServer {
  /** Form submissions received, parsed (application/x-www-form-urlencoded). */
  submissions: Record<string, string>[];
}

const dir = fileURLToPath(new URL("./fixtures/", import.meta.url));

export async function serveAgentSite(host = "127.0.0.1"): Promise<AgentSite> {
  const submissions: Record<string, string>[] = [];
  const site = await serveStatic(
    dir,
    [
      async (req, res) => {
        if (req.method !== "POST" || !req.url?.startsWith("/submit")) return false;
        let body = "";
        for await (const chunk of req) body += chunk;
        submissions.push(Object.fromEntries(new URLSearchParams(body)));
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("<!doctype html><title>Welcome</title><h1>Account created</h1><p>Check your email.</p>");
        return true;
      },
    ],
    host,
  );
  return Object.assign(site, { submissions });
}
