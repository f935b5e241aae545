/** web_fetch/web_search ("network" kind): a person approves them in every mode but bypass, and
 *  "always allow" remembers one host, not every address. */
import { describe, expect, it } from "vitest";
import { allowScope, modeVerdict } from "../../src/agent/permissions/modes.js";

describe("network tools and permission modes", () => {
  it.each(["default", "plan", "acceptEdits"] as const)("%s mode asks", (mode) => {
    expect(
      modeVerdict({ mode, toolName: "web_fetch", kind: "network", primary: "https://a.example/x" }),
    ).toEqual({ kind: "ask", reason: "web_fetch sends a request to the web" });
  });

  it("bypassPermissions allows", () => {
    expect(
      modeVerdict({
        mode: "bypassPermissions",
        toolName: "web_fetch",
        kind: "network",
        primary: "",
      }).kind,
    ).toBe("allow");
  });

  it("'always allow' covers the URL's host only", () => {
    const a = allowScope("web_fetch", "network", "https://Docs.Example.com/a?q=1");
    const b = allowScope("web_fetch", "network", "https://docs.example.com/other");
    const c = allowScope("web_fetch", "network", "https://docs.example.com.evil.test/");
    expect(a.key).toBe("web_fetch:domain:docs.example.com");
    expect(b.key).toBe(a.key);
    expect(c.key).not.toBe(a.key);
    expect(a.label).toBe("Always allow web_fetch to docs.example.com for this session");
  });
});
