/**
 * `keel hooks list` piped (`| grep`, `> file`) is read by programs and searched: a long path or
 * command must stay on one line, not be cut across two at column 80 (issue 29). On a terminal
 * the listing still fits 80 columns (test/cli/hooks.test.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPrivate } from "../e2e/tui-harness.js";

let build: ReturnType<typeof buildPrivate>;
let root: string;
beforeAll(() => {
  build = buildPrivate();
  root = mkdtempSync(join(tmpdir(), "keel-hooks-piped-"));
}, 120_000);
afterAll(() => {
  build?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

describe("keel hooks list, piped", () => {
  it.each([[["hooks", "list"]], [["hooks", "list", "--cwd", "."]]])(
    "%j keeps a long command path whole on one line",
    (args) => {
      const project = join(root, "project");
      const deep = "scripts/guards/pre-tool-use/very-long-folder-name-for-this-guard";
      mkdirSync(join(project, deep), { recursive: true });
      mkdirSync(join(project, ".claude"), { recursive: true });
      const command = `${deep}/check-every-shell-command-before-it-runs.sh --strict`;
      writeFileSync(
        join(project, ".claude/settings.json"),
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] },
        }),
      );
      const r = spawnSync(process.execPath, [build.bin, ...args], {
        cwd: project,
        env: { ...process.env, KEEL_HOME: join(root, "keel-home"), HOME: root },
        encoding: "utf8",
      });
      expect(r.status).toBe(0);
      expect(command.length).toBeGreaterThan(80);
      expect(r.stdout.split("\n").some((line) => line.includes(command))).toBe(true);
    },
  );
});
