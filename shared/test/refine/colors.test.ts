// Background colour parsing and naming.
import { describe, expect, it } from "vitest";
import { describeColor, parseColor } from "@sightline/shared/refine";

describe("colours", () => {
  it("parses rgb/rgba/hex/hsl/named colours", () => {
    expect(parseColor("rgb(255, 0, 0)")).toEqual({ r: 255, g: 0, b: 0, a: 1 });
    expect(parseColor("rgba(0, 0, 255, 0.5)")).toEqual({ r: 0, g: 0, b: 255, a: 0.5 });
    expect(parseColor("rgb(0 128 0 / 50%)")).toEqual({ r: 0, g: 128, b: 0, a: 0.5 });
    expect(parseColor("#0f0")).toEqual({ r: 0, g: 255, b: 0, a: 1 });
    expect(parseColor("#00000080")!.a).toBeCloseTo(0.5, 2);
    expect(parseColor("tomato")).toEqual({ r: 255, g: 99, b: 71, a: 1 });
    const h = parseColor("hsl(120, 100%, 25%)")!;
    expect([Math.round(h.r), Math.round(h.g), Math.round(h.b)]).toEqual([0, 128, 0]);
    expect(parseColor("not-a-colour")).toBeNull();
  });

  it("names the nearest basic colour; transparent and junk give null", () => {
    const name = (s: string) => describeColor(s).name;
    expect(name("rgb(0, 123, 255)")).toBe("blue");
    expect(name("#28a745")).toBe("green");
    expect(name("rgb(220, 53, 69)")).toBe("red");
    expect(name("rgb(255, 255, 255)")).toBe("white");
    expect(name("#111")).toBe("black");
    expect(name("rgb(128, 128, 128)")).toBe("gray");
    expect(name("orange")).toBe("orange");
    expect(name("rgb(255, 193, 7)")).toBe("yellow");
    expect(name("rgba(0, 0, 0, 0)")).toBeNull();
    expect(name("transparent")).toBeNull();
    expect(name("garbage")).toBeNull();
    expect(describeColor("rgb(0, 123, 255)").vivid).toBe(true);
    expect(describeColor("rgb(245, 245, 245)").vivid).toBe(false);
  });
});
