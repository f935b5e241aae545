/**
 * A `Bash(rm:*)` deny holds against wrappers Keel does not know (issue 26): where Keel cannot
 * tell whether a line runs `rm` (a project script that runs its arguments, `find -exec`,
 * `xargs sh -c` fed by a pipe, `env -S` with escapes, a program from a variable), the call needs
 * a person — --yes and bypassPermissions do not approve it; `flock f -c '…'` is read as the
 * shell it starts and denied outright. Through `keel run` against the simulator; each command
 * really deletes the file when it runs.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

const SLIPS = [
  "./wrap.sh rm -f important.txt",
  "find . -name important.txt -exec rm -f {} \\;",
  "printf 'rm -f important.txt' | xargs -0 sh -c",
  "env -S'rm\\_-f important.txt'",
  "X=rm; $X -f important.txt",
  "sh -c './wrap.sh rm -f important.txt'",
];

function denyRm(w: World): void {
  mkdirSync(join(w.project, ".claude"), { recursive: true });
  writeFileSync(
    join(w.project, ".claude", "settings.local.json"),
    JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }),
  );
}

async function runOne(command: string, flags: string[], deny = true) {
  const w = await newWorld(script(reply().tool("shell", { command }), reply().text("done")));
  writeFileSync(join(w.project, "important.txt"), "keep me\n");
  // A wrapper Keel has never heard of: it runs its arguments.
  writeFileSync(join(w.project, "wrap.sh"), '#!/bin/sh\nexec "$@"\n');
  chmodSync(join(w.project, "wrap.sh"), 0o755);
  if (deny) denyRm(w);
  const r = await keel(w, ["run", "go", "--output-format", "json", ...flags]);
  expect(r.code, r.stderr).toBe(0);
  const calls = JSON.parse(r.stdout).toolCalls as Array<{ status: string }>;
  const told = String(w.sim.requests[1]?.messages.at(-1)?.content);
  return { w, calls, told, kept: existsSync(join(w.project, "important.txt")) };
}

describe("Bash deny rules fail closed on wrappers Keel cannot read", () => {
  for (const command of SLIPS) {
    for (const flags of [["--yes"], ["--mode", "bypassPermissions"]]) {
      it(`${command} (${flags.join(" ")}) needs a person, headless: refused`, async () => {
        const { w, calls, told, kept } = await runOne(command, flags);
        expect(calls.map((c) => c.status)).toEqual(["blocked"]);
        expect(told).toContain("Keel cannot tell whether the rule Bash(rm:*)");
        expect(told).toContain("The tool did not run.");
        expect(readFileSync(join(w.project, "important.txt"), "utf8")).toBe("keep me\n");
        expect(kept).toBe(true);
      });
    }
  }

  it("flock FILE -c 'rm …' is read as the shell it starts: denied", async () => {
    const { calls, told, kept } = await runOne("flock lockfile -c 'rm -f important.txt'", [
      "--yes",
    ]);
    expect(calls.map((c) => c.status)).toEqual(["blocked"]);
    expect(told).toContain("Denied by the rule Bash(rm:*)");
    expect(kept).toBe(true);
  });

  // Controls: each command really deletes the file when nothing stops it, and a line with no
  // sign of rm still runs under the rule.
  for (const command of [...SLIPS, "flock lockfile -c 'rm -f important.txt'"]) {
    it(`control: without the rule, --yes runs ${command}`, async () => {
      const { kept } = await runOne(command, ["--yes"], false);
      expect(kept).toBe(false);
    });
  }

  it("control: with the rule, a line that shows no rm runs under --yes", async () => {
    const { calls, kept } = await runOne("./wrap.sh echo important.txt", ["--yes"]);
    expect(calls.map((c) => c.status)).toEqual(["ok"]);
    expect(kept).toBe(true);
  });
});
