/**
 * The CLI bundle is ASCII (scripts/build-cli.mjs): V8 stores a module's source as two bytes per
 * character when any character is outside Latin-1, which doubled the memory of the largest
 * chunks `keel run` loads. The escaped regex literals still match what they matched.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPrivate } from "../e2e/tui-harness.js";

let build: ReturnType<typeof buildPrivate>;
beforeAll(() => {
  build = buildPrivate();
}, 120_000);
afterAll(() => build?.cleanup());

describe("the bundled CLI's source", () => {
  it("has only ASCII characters in every chunk", () => {
    const dir = dirname(build.bundle);
    const chunks = readdirSync(dir).filter((n) => n.endsWith(".mjs"));
    expect(chunks.length).toBeGreaterThan(10);
    for (const name of chunks) {
      const text = readFileSync(join(dir, name), "utf8");
      expect(/[^\x00-\x7f]/.exec(text)?.index, name).toBeUndefined();
    }
  });

  it("keeps a DeepSeek markup regex working after its characters were escaped", async () => {
    const dir = dirname(build.bundle);
    const escaped = readdirSync(dir)
      .filter((n) => n.endsWith(".mjs"))
      .map((n) => readFileSync(join(dir, n), "utf8"))
      .find((t) => t.includes("tool[\\u2581_ ]call"));
    expect(escaped).toBeDefined();
    const source = /\/\[\\uff5c\|\]\(\?:DSML\[\\uff5c\|\]\|tool\[\\u2581_ \]call\)\//.exec(
      escaped ?? "",
    )?.[0];
    expect(source).toBeDefined();
    const regex = new Function(`return ${source}`)() as RegExp;
    expect(regex.test("<｜tool▁call")).toBe(true);
    expect(regex.test("|DSML|")).toBe(true);
    expect(regex.test("plain text")).toBe(false);
  });
});
