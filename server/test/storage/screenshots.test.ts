// Stored screenshots and their signed links, on a real temp data dir.
import { mkdtemp, readFile, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileObjectStore, ScreenshotService, UrlSigner, loadSigningSecret } from "../../src/storage/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sightline-store-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

describe("signed screenshot links", () => {
  it("round-trips an image through a link that expires in 24 hours", async () => {
    const service = new ScreenshotService(new FileObjectStore(join(dir, "shots"), 25 * 3600_000), new UrlSigner(Buffer.alloc(32, 7)));
    const now = Date.UTC(2026, 0, 1);
    const shot = await service.deliver(png, "png", "url", "https://api.example/", now);
    expect(shot).toMatchObject({ type: "url", format: "png", size_bytes: png.length, expires_at: "2026-01-02T00:00:00.000Z" });
    const link = new URL(shot.url!);
    expect(link.origin + link.pathname).toMatch(/^https:\/\/api\.example\/v1\/screenshots\/[A-Za-z0-9_-]{24}\.png$/);
    const id = decodeURIComponent(link.pathname.split("/").pop()!);
    const ok = await service.open(id, link.searchParams.get("expires")!, link.searchParams.get("sig")!, now + 1000);
    expect(ok.verdict).toBe("ok");
    expect(ok.verdict === "ok" && ok.object.data.equals(png)).toBe(true);

    // a day later the same link is refused as expired
    const late = await service.open(id, link.searchParams.get("expires")!, link.searchParams.get("sig")!, now + 24 * 3600_000);
    expect(late.verdict).toBe("expired");
    // moving the expiry breaks the signature
    const moved = await service.open(id, String(now + 48 * 3600_000), link.searchParams.get("sig")!, now);
    expect(moved.verdict).toBe("invalid");
    // so does pointing the signature at another object
    expect((await service.open(id.replace(/^./, (c) => (c === "A" ? "B" : "A")), link.searchParams.get("expires")!, link.searchParams.get("sig")!, now)).verdict).toBe("invalid");
  });

  it("inlines base64 without storing anything", async () => {
    const store = new FileObjectStore(join(dir, "inline"), 1000);
    const shot = await new ScreenshotService(store, new UrlSigner(Buffer.alloc(32, 1))).deliver(png, "png", "base64", "http://x");
    expect(shot).toEqual({ type: "base64", data: png.toString("base64"), format: "png", size_bytes: png.length });
    await expect(stat(join(dir, "inline"))).rejects.toThrow();
  });

  it("refuses ids that are not its own before touching the disk", async () => {
    const store = new FileObjectStore(join(dir, "shots"), 1000);
    expect(await store.get("../signing-secret")).toBeNull();
    await expect(store.put("../../evil.png", png, "image/png")).rejects.toThrow(/invalid object id/);
  });

  it("sweeps objects older than the maximum age", async () => {
    const store = new FileObjectStore(join(dir, "sweep"), 60_000);
    await store.put("aaaaaaaaaaaaaaaaaaaa.png", png, "image/png");
    await store.put("bbbbbbbbbbbbbbbbbbbb.png", png, "image/png");
    const old = new Date(Date.now() - 120_000);
    await utimes(join(dir, "sweep", "aaaaaaaaaaaaaaaaaaaa.png"), old, old);
    expect(await store.sweep()).toBe(1);
    expect(await store.get("aaaaaaaaaaaaaaaaaaaa.png")).toBeNull();
    expect(await store.get("bbbbbbbbbbbbbbbbbbbb.png")).not.toBeNull();
  });
});

describe("signing secret", () => {
  it("is created once in the data dir (0600) and reused; the environment overrides it", async () => {
    const a = await loadSigningSecret(join(dir, "data"));
    const b = await loadSigningSecret(join(dir, "data"));
    expect(a.equals(b)).toBe(true);
    expect(a.length).toBe(32);
    expect((await stat(join(dir, "data", "signing-secret"))).mode & 0o777).toBe(0o600);
    expect((await readFile(join(dir, "data", "signing-secret"), "utf8")).trim()).toBe(a.toString("hex"));
    expect((await loadSigningSecret(join(dir, "data"), "an operator-chosen secret")).toString()).toBe("an operator-chosen secret");
  });
});
