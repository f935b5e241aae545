import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { redactUrls } from "../../src/hooks/redact.js";
import { redactUrls as llmRedactUrls } from "../../src/llm/redact.js";

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
    expect(llmRedactUrls(input)).toBe(want);
  });

  it("the llm copy is the same code as the hooks original", () => {
    const body = (p: string) =>
      readFileSync(join(__dirname, "../../src", p), "utf8").replace(/^\/\*\*[\s\S]*?\*\/\n/, "");
    expect(body("llm/redact.ts")).toBe(body("hooks/redact.ts"));
  });
});
