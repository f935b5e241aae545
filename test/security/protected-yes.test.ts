/**
 * `--yes` does not approve a write that can switch Keel's guards off (issue 26; docs/security.md
 * layer 4): the project's settings and hooks files of every dialect, anything in `.keel/`, and
 * a script a hook runs. Headless, the write is refused with a message naming the path and how
 * to allow it, like a hard link. A file only a hook's test runner loads (a new test) is still
 * --yes's to approve. Through `keel hooks trust` and `keel run --yes`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, sentMessages, worldPerTest } from "../agent/harness.js";
import { keelHook, put } from "./trust-world.js";

const newWorld = worldPerTest();

const OFF = JSON.stringify({ disableAllHooks: true, hooks: {} });

const GUARDS: { write: string; before?: string }[] = [
  { write: ".keel/settings.json", before: "keel" },
  { write: ".keel/settings.local.json" },
  { write: ".claude/settings.json" },
  { write: ".claude/settings.local.json" },
  { write: ".gemini/settings.json" },
  { write: ".codex/hooks.json" },
  { write: ".keel/commands/ship.md" },
  { write: "tools/guard.sh", before: "script" },
];

async function run(world: Awaited<ReturnType<typeof newWorld>>) {
  const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
  expect(t.code, t.stderr).toBe(0);
  const r = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
  if (r.stdout === "") throw new Error(r.stderr);
  // The refusal's reason is the tool result the model gets in the next request.
  return { out: JSON.parse(r.stdout), text: sentMessages(world, 1).join("\n") };
}

describe("--yes does not approve a write that switches a guard off", () => {
  for (const c of GUARDS) {
    it(`${c.write} is refused headless with --yes`, async () => {
      const world = await newWorld(
        script(reply().tool("write_file", { path: c.write, content: OFF }), reply().text("ok")),
      );
      put(world, "tools/guard.sh", '#!/bin/sh\ncase "$(cat)" in *rm*) exit 2;; esac\n');
      keelHook(world, "sh tools/guard.sh");
      const before = existsSync(join(world.project, c.write))
        ? readFileSync(join(world.project, c.write), "utf8")
        : null;
      const { out, text } = await run(world);
      expect(out.toolCalls[0].status).toBe("blocked");
      expect(text).toContain(`${c.write} is a protected path`);
      expect(text).toMatch(/--yes does not cover it/);
      const after = existsSync(join(world.project, c.write))
        ? readFileSync(join(world.project, c.write), "utf8")
        : null;
      expect(after).toBe(before);
    });
  }

  it("a new test a hook's runner would find is still --yes's to approve", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "tests/test_new.py", content: "def test_n(): pass\n" }),
        reply().text("ok"),
      ),
    );
    put(world, "tests/test_a.py", "def test_a(): pass\n");
    keelHook(world, "pytest -q");
    const { out } = await run(world);
    expect(out.toolCalls[0].status).not.toBe("blocked");
    expect(existsSync(join(world.project, "tests/test_new.py"))).toBe(true);
  });
});
