import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { redactUrls } from "../../src/base/index.js";

const CASES: Array<[string, string]> = [
  [
    "POST https://user:s3cret@hooks.example/x?token=abc&v=2",
    "POST https://***@hooks.example/x?token=***&v=***",
  ],
  ["http://127.0.0.1:9/a?bare#frag", "http://127.0.0.1:9/a?***#frag"],
  ["no url here: user:pass@host", "no url here: user:pass@host"],
  [
    '"https://api.example/v1?key=k1" and ftp://u@h/p',
    '"https://api.example/v1?key=***" and ftp://***@h/p',
  ],
  ["https://plain.example/path", "https://plain.example/path"],
];

describe("redactUrls", () => {
  it.each(CASES)("%s", (input, want) => {
    expect(redactUrls(input)).toBe(want);
  });

  it("is the one copy: neither hooks/ nor llm/ keeps its own", () => {
    const src = join(__dirname, "../../src");
    expect(existsSync(join(src, "llm/redact.ts"))).toBe(false);
    expect(existsSync(join(src, "hooks/redact.ts"))).toBe(false);
    // The LLM client's errors and the hooks engine's logs both redact through base/.
    expect(readFileSync(join(src, "llm/client.ts"), "utf8")).toContain("../base/index.js");
  });
});
