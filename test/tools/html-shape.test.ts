import { describe, expect, it } from "vitest";
import { canonicalIpKey } from "../../src/hooks/index.js";
import { htmlShape } from "../../src/tools/html-shape.js";

describe("htmlShape (web_fetch's bound before turndown)", () => {
  it("counts nesting of start over end tags; void, self-closed and sibling-closed tags open none", () => {
    expect(htmlShape("<div><b>x</b></div><div>y</div>")).toEqual({ tags: 6, depth: 2 });
    expect(htmlShape(`<ul>${"<li>x".repeat(500)}</ul><br><img src=a><x/>`).depth).toBe(1);
    expect(htmlShape(`${"<div>".repeat(300)}${"</div>".repeat(300)}`).depth).toBe(300);
  });

  it("is linear on hostile input: no tag end, an unclosed comment", () => {
    const t0 = Date.now();
    htmlShape("<a".repeat(500_000));
    htmlShape(`<div><!--${"<div>".repeat(200_000)}`);
    expect(htmlShape(`<div><!--${"<div>".repeat(10)}`).depth).toBe(1);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});

describe("canonicalIpKey (WebFetch(domain:IP) rules)", () => {
  it("gives every spelling of an IPv4 address one key", () => {
    for (const host of [
      "127.0.0.1",
      "[::ffff:7f00:1]",
      "[::7f00:1]",
      "[64:ff9b::7f00:1]",
      "[::ffff:0:7f00:1]",
    ]) {
      expect(canonicalIpKey(host)).toBe("127.0.0.1");
    }
  });

  it("keeps ::, ::1 and other IPv6 addresses their own; names are not IPs", () => {
    expect(canonicalIpKey("[::1]")).toBe("0:0:0:0:0:0:0:1");
    expect(canonicalIpKey("[::]")).toBe("0:0:0:0:0:0:0:0");
    expect(canonicalIpKey("[2001:db8::1]")).toBe("2001:db8:0:0:0:0:0:1");
    expect(canonicalIpKey("example.com")).toBeNull();
  });
});
