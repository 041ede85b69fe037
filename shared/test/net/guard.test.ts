// URL and host checks with a fake resolver (no DNS traffic) and loopback names only.
import { describe, expect, it } from "vitest";
import { checkRequestUrl, parseAllowList, resolveChecked, EgressRefusal, type Lookup } from "../../src/net/index.js";

const fakeDns = (table: Record<string, string[]>): Lookup => async (host) => {
  const list = table[host];
  if (!list) throw new Error("ENOTFOUND");
  return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};
const allow127 = parseAllowList("127.0.0.1");

async function refusal(p: Promise<unknown>): Promise<EgressRefusal> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(EgressRefusal);
  return err as EgressRefusal;
}

describe("checkRequestUrl with only 127.0.0.1 allowed", () => {
  it("accepts 127.0.0.1 itself", async () => {
    const url = await checkRequestUrl("http://127.0.0.1:8080/x", allow127, fakeDns({}));
    expect(url.hostname).toBe("127.0.0.1");
  });

  it.each([
    ["http://127.0.0.2/", /127\.0\.0\.2 is a loopback address/],
    ["http://localhost:8080/", /localhost is a loopback name/],
    ["http://LOCALHOST./", /loopback name/],
    ["http://app.localhost/", /loopback name/],
    ["http://[::1]/", /::1 is a loopback address/],
    ["http://[::ffff:127.0.0.1]/", /loopback address \(127\.0\.0\.1 in IPv4-mapped IPv6\)/],
    ["http://[::127.0.0.1]/", /\[::7f00:1\]: ::7f00:1 is a loopback address \(127\.0\.0\.1 in IPv4-compatible IPv6\)/],
    ["http://[::169.254.169.254]/", /link-local \(cloud metadata\) address \(169\.254\.169\.254 in IPv4-compatible IPv6\)/],
    ["http://[::10.0.0.1]/", /private \(RFC 1918\) address \(10\.0\.0\.1 in IPv4-compatible IPv6\)/],
    ["http://2130706433/", /non-canonical spelling of 127\.0\.0\.1/],
    ["http://0x7f000001/", /non-canonical spelling of 127\.0\.0\.1/],
    ["http://127.1/", /non-canonical spelling of 127\.0\.0\.1/],
    ["http://0177.0.0.1/", /non-canonical spelling of 127\.0\.0\.1/],
    ["http:\\\\2130706433\\", /non-canonical/],
    ["ftp://127.0.0.1/", /only http and https/],
    ["file:///etc/passwd", /only http and https/],
  ])("refuses %s", async (raw, message) => {
    const err = await refusal(checkRequestUrl(raw, allow127, fakeDns({})));
    expect(err.message).toMatch(message);
  });

  it("refuses a name when any of its addresses is private (a browser may use any)", async () => {
    const dns = fakeDns({ "mixed.test": ["93.184.215.14", "10.0.0.5"], "public.test": ["93.184.215.14"] });
    const err = await refusal(resolveChecked("mixed.test", allow127, dns));
    expect(err.message).toBe("mixed.test resolves to 10.0.0.5 is a private (RFC 1918) address");
    await expect(resolveChecked("public.test", allow127, dns)).resolves.toEqual({ address: "93.184.215.14", family: 4 });
  });

  it("says when a name does not resolve", async () => {
    const err = await refusal(resolveChecked("nowhere.test", allow127, fakeDns({})));
    expect(err.reason).toBe("unresolvable");
  });

  it("lets a host listed by name through whatever it resolves to", async () => {
    const policy = parseAllowList("intranet.test,localhost");
    const dns = fakeDns({ "intranet.test": ["10.0.0.7"], localhost: ["127.0.0.1"] });
    await expect(resolveChecked("intranet.test", policy, dns)).resolves.toEqual({ address: "10.0.0.7", family: 4 });
    await expect(resolveChecked("localhost", policy, dns)).resolves.toEqual({ address: "127.0.0.1", family: 4 });
  });
});
