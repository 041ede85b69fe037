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

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"])("lets public unicast %s through", (ip) => {
    expect(refusedRange(ip)).toBeNull();
    expect(addressRefusal(ip, DEFAULT_POLICY)).toBeNull();
  });

  it("explains a refusal in words", () => {
    expect(addressRefusal("169.254.169.254", DEFAULT_POLICY)).toBe("169.254.169.254 is a link-local (cloud metadata) address");
    expect(addressRefusal("::ffff:7f00:1", DEFAULT_POLICY)).toMatch(/loopback \(IPv4 inside ipv4Mapped\)/);
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
