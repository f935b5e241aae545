/**
 * A write through a hard link (attacks3/35): an archive unpacks `docs/cfg.txt` as a second name
 * of `.git/config`; links are not followed back, so any file with more than one name needs a
 * person at the prompt — not acceptEdits, not --yes. write_file and edit_file alike, through
 * `keel run` headless (no person: refused, the file unchanged).
 */
import { linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../../src/sim/index.js";
import { keel, worldPerTest } from "../harness.js";

const newWorld = worldPerTest();
const CONFIG = "[core]\n\trepositoryformatversion = 0\n";

function gitConfigLinkedAsDoc(project: string): string {
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "docs"));
  const config = join(project, ".git", "config");
  writeFileSync(config, CONFIG);
  linkSync(config, join(project, "docs", "cfg.txt"));
  return config;
}

describe("protected paths: hard links (keel run, headless)", () => {
  for (const [tool, input] of [
    [
      "edit_file",
      { path: "docs/cfg.txt", old_string: "[core]", new_string: "[core]\n\tfsmonitor = evil #" },
    ],
    ["write_file", { path: "docs/cfg.txt", content: "[core]\n\tfsmonitor = evil #\n" }],
  ] as const) {
    it(`${tool} through a hard link to .git/config is refused in acceptEdits and with --yes`, async () => {
      const w = await newWorld(
        script(
          reply().tool(tool, input),
          reply().text("done"),
          reply().tool(tool, input),
          reply().text("done"),
        ),
      );
      const config = gitConfigLinkedAsDoc(w.project);
      for (const flags of [["--mode", "acceptEdits"], ["--yes"]]) {
        const r = await keel(w, ["run", "tidy docs", ...flags, "--output-format", "json"]);
        expect(JSON.parse(r.stdout).toolCalls[0].status, flags.join(" ")).toBe("blocked");
      }
      const toolMsg = String(w.sim.requests[3]?.messages.at(-1)?.content);
      expect(toolMsg).toContain("docs/cfg.txt is a protected path: it is a hard link");
      expect(toolMsg).toContain("--yes does not cover");
      expect(readFileSync(config, "utf8")).toBe(CONFIG);
    });
  }

  it("a file with one name is still edited in acceptEdits", async () => {
    const w = await newWorld(
      script(
        reply().tool("edit_file", { path: "notes.txt", old_string: "a", new_string: "b" }),
        reply().text("done"),
      ),
    );
    writeFileSync(join(w.project, "notes.txt"), "a\n");
    const r = await keel(w, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).not.toBe("blocked");
    expect(readFileSync(join(w.project, "notes.txt"), "utf8")).toBe("b\n");
  });
});
