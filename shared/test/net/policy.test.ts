// The host policy decides on addresses only; nothing here sends a packet anywhere.
import { describe, expect, it } from "vitest";
import { addressRefusal, parseAllowList, refusedRange, DEFAULT_POLICY, PolicyError } from "../../src/net/index.js";

describe("default host policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.0.0.2", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.100.100.200", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["192.0.0.192", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fd00:ec2::254", "uniqueLocal"],
    ["ff02::1", "multicast"],
  ])("refuses %s (%s)", (ip, range) => {
    expect(refusedRange(ip)).toBe(range);
  });

  it.each(["::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "::ffff:0:a00:1"])(
    "judges IPv6 forms that carry an IPv4 address by that address: %s",
    (ip) => {
      expect(refusedRange(ip)).not.toBeNull();
    },
  );

  // Every IPv6 form that carries an IPv4 address, with a refused IPv4 address inside: the URL
  // parser rewrites [::169.254.169.254] as ::a9fe:a9fe, which ipaddr.js alone calls unicast.
  it.each([
    ["::169.254.169.254", "169.254.169.254", "link-local", "IPv4-compatible"], // ::/96, deprecated
    ["::a9fe:a9fe", "169.254.169.254", "link-local", "IPv4-compatible"],
    ["::10.0.0.1", "10.0.0.1", "private", "IPv4-compatible"],
    ["::127.0.0.1", "127.0.0.1", "loopback", "IPv4-compatible"],
    ["::ffff:169.254.169.254", "169.254.169.254", "link-local", "IPv4-mapped"],
    ["::ffff:0:10.0.0.1", "10.0.0.1", "private", "IPv4-translated"], // RFC 6145
    ["64:ff9b::127.0.0.1", "127.0.0.1", "loopback", "NAT64"], // well-known prefix, RFC 6052
    ["2002:a9fe:a9fe::1", "169.254.169.254", "link-local", "6to4"],
    ["2002:c0a8:101::", "192.168.1.1", "private", "6to4"],
    ["2a00:1450:4001:81b:0:5efe:10.1.2.3", "10.1.2.3", "private", "ISATAP"], // interface id 0:5efe:V4
    ["2a00:1450:4001:81b:200:5efe:7f00:1", "127.0.0.1", "loopback", "ISATAP"], // u bit set
  ])("refuses %s: it carries %s", (ip, v4, range, form) => {
    const msg = addressRefusal(ip, DEFAULT_POLICY) ?? "";
    expect(msg).toContain(range);
    expect(msg).toContain(`(${v4} in ${form} IPv6)`);
  });

  it.each([
    ["64:ff9b:1::808:808", /local-use NAT64/], // RFC 8215: the network's own translator, layout unknown
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /Teredo/],
  ])("refuses %s outright", (ip, why) => {
    expect(addressRefusal(ip, DEFAULT_POLICY)).toMatch(why);
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "::8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1", "2a00:1450:4001:81b:0:5efe:808:808"])("lets public unicast %s through", (ip) => {
    expect(refusedRange(ip)).toBeNull();
    expect(addressRefusal(ip, DEFAULT_POLICY)).toBeNull();
  });

  it("explains a refusal in words", () => {
    expect(addressRefusal("169.254.169.254", DEFAULT_POLICY)).toBe("169.254.169.254 is a link-local (cloud metadata) address");
    expect(addressRefusal("::ffff:7f00:1", DEFAULT_POLICY)).toMatch(/loopback address \(127\.0\.0\.1 in IPv4-mapped IPv6\)/);
  });
});

describe("SIGHTLINE_ALLOW_PRIVATE_HOSTS", () => {
  it("opens exactly the listed addresses and ranges, without mixing IPv4 and IPv6", () => {
    const p = parseAllowList("127.0.0.1, 10.0.0.0/8 ,intranet.example,.corp.example");
    expect(addressRefusal("127.0.0.1", p)).toBeNull();
    expect(addressRefusal("10.200.0.1", p)).toBeNull();
    expect(addressRefusal("127.0.0.2", p)).toMatch(/loopback/);
    expect(addressRefusal("::ffff:7f00:1", p)).toMatch(/loopback/);
    expect(addressRefusal("::1", p)).toMatch(/loopback/);
    expect(p.hosts.has("intranet.example")).toBe(true);
    expect(p.suffixes).toEqual([".corp.example"]);
  });

  it("`*` allows everything", () => {
    expect(addressRefusal("192.168.0.1", parseAllowList("*"))).toBeNull();
  });

  it("rejects a malformed CIDR with the variable's name", () => {
    expect(() => parseAllowList("10.0.0.0/99")).toThrow(PolicyError);
    expect(() => parseAllowList("10.0.0.0/99")).toThrow(/SIGHTLINE_ALLOW_PRIVATE_HOSTS/);
  });
});
