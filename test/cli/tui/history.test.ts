import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPromptHistory } from "../../../src/cli/tui/history.js";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "keel-history-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("prompt history", () => {
  it("remembers prompts per project across instances, in a file only the user can read", async () => {
    const a = createPromptHistory({ keelHome: home, projectDir: "/p/a" });
    a.append("first\nwith two lines");
    a.append("second");
    a.append("second");
    createPromptHistory({ keelHome: home, projectDir: "/p/b" }).append("other project");
    expect(createPromptHistory({ keelHome: home, projectDir: "/p/a" }).load()).toEqual([
      "first\nwith two lines",
      "second",
    ]);
    expect((await stat(join(home, "history.jsonl"))).mode & 0o777).toBe(0o600);
  });

  it("skips torn lines and trims the file when it grows", async () => {
    await writeFile(join(home, "history.jsonl"), '{"project":"/p","text":"kept"}\n{"proj\n');
    const h = createPromptHistory({
      keelHome: home,
      projectDir: "/p",
      maxBytes: 200,
      keepLines: 3,
    });
    expect(h.load()).toEqual(["kept"]);
    for (let i = 0; i < 10; i++) h.append(`prompt ${i}`);
    const kept = h.load();
    expect(kept.at(-1)).toBe("prompt 9");
    expect(kept).not.toContain("kept");
    expect(kept).not.toContain("prompt 0");
    expect((await readFile(join(home, "history.jsonl"), "utf8")).length).toBeLessThan(250);
  });

  it("never throws when the home cannot be written", () => {
    const h = createPromptHistory({ keelHome: join(home, "missing", "dir"), projectDir: "/p" });
    expect(() => h.append("x")).not.toThrow();
    expect(h.load()).toEqual([]);
  });
});
