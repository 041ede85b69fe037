// A tiny loopback TCP load balancer for tests of several instances: each new connection goes
// to the first backend that accepts it, in order (A while it lives, then B), and its bytes are
// piped both ways. A backend that dies takes its connections with it, as a real one's would;
// whoever reconnects reaches the next backend. No stickiness, no HTTP awareness.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface Balancer {
  url: string;
  port: number;
  /** The backends ("127.0.0.1:PORT"), tried in order for each new connection. */
  backends: string[];
  close(): Promise<void>;
}

export async function startBalancer(backends: string[] = []): Promise<Balancer> {
  const open = new Set<Socket>();
  const tryBackend = (client: Socket, i: number, list: string[]) => {
    if (i >= list.length) return client.destroy();
    const [host, port] = list[i].split(":");
    const up = connect({ host, port: Number(port) });
    up.once("error", () => {
      if (!up.remoteAddress || up.bytesRead === 0) tryBackend(client, i + 1, list);
    });
    up.once("connect", () => {
      up.removeAllListeners("error");
      open.add(up);
      up.on("error", () => client.destroy());
      client.on("error", () => up.destroy());
      up.on("close", () => (open.delete(up), client.destroy()));
      client.on("close", () => up.destroy());
      client.pipe(up);
      up.pipe(client);
      client.resume();
    });
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    tryBackend(client, 0, [...lb.backends]);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  const lb: Balancer = {
    url: `http://127.0.0.1:${port}`,
    port,
    backends,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
  return lb;
}
