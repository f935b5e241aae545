/**
 * Red-team finding: a deny rule `Bash(touch:*)`, a guard `if: Bash(git push*)` and auto-approval
 * all rest on the shell checker (src/hooks/shell) listing the commands a line runs. Two ways
 * past it ran touch under `keel run --yes`:
 *   1. a shell run with options before its script (`bash -lc`, `sh -ec`, `sh -c --`, `/bin/sh`,
 *      `bash -o pipefail -c`…), or fed its script on stdin (`bash <<< …`, `echo … | sh`);
 *   2. syntax bash and dash read differently: `((touch x))` is arithmetic to bash and two
 *      subshells running touch to dash (the shell tool's `sh -c` on Debian); `$'x\' ; touch y`
 *      is one string to bash and a touch to dash; `{touch,x}` is `touch x` to bash.
 * Each line below is first run by the real shell to show it does run touch.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { autoApprove } from "../../src/agent/permissions/auto-approve/index.js";
import { parseRule } from "../../src/agent/permissions/rules.js";
import { parseCondition } from "../../src/hooks/match.js";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest, writeSettings } from "../agent/harness.js";

/** Lines that run `touch M` (M replaced by a marker file name) in `sh -c`, dash on Debian. */
const TOUCHING = [
  // 1. shells with options before the script, or a script on stdin
  "bash -lc 'touch M'",
  "sh -ec 'touch M'",
  "sh -xc 'touch M'",
  "sh -c -- 'touch M'",
  "bash -e -c 'touch M'",
  "bash --login -c 'touch M'",
  "bash --norc -c 'touch M'",
  "bash --noprofile --norc -c 'touch M'",
  "bash -ic 'touch M' 2>/dev/null",
  "bash -O extglob -c 'touch M'",
  "bash -o pipefail -c 'touch M'",
  "bash +e -c 'touch M'",
  "bash -c -e 'touch M'",
  "/bin/sh -c 'touch M'",
  "/usr/bin/env bash -c 'touch M'",
  "env sh -lc 'touch M'",
  "command bash -ec 'touch M'",
  "bash -c 'touch M' name arg",
  "bash -c \"bash <<< 'touch M'\"",
  "sh <<'EOF'\ntouch M\nEOF",
  "echo 'touch M' | sh",
  "printf 'touch M\\n' | bash",
  // 2. bash and dash read it differently
  "((touch M))",
  "echo $((1)) && ((touch M))",
  "echo $'x\\' ; touch M ; # '",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text
  "echo ${x:-$'\\'} ; touch M # '}",
  "echo $'x\\' ; touch M ; # '\ncat <(true)",
  "bash -c '{touch,M}'",
  "bash -c 'tou{ch,x} M'",
  "bash -c 'echo $((1)) ; ((touch M))' || ((touch M))",
];

/** What the red team's guard must catch: git push in the same disguises. */
const PUSHING = [
  'bash -lc "git push --force"',
  '/bin/sh -c "git push --force"',
  'sh -ec "git push --force"',
  'sh -c -- "git push --force"',
  'bash -o pipefail -c "git push --force"',
  "((git push --force))",
  "echo $'x\\' ; git push --force ; # '",
  "bash <<< 'git push --force'",
  "echo 'git push --force' | bash",
  "bash -c '{git,push}'",
];

/** The same shells, not running anything a rule names: no rule may fire. */
const HARMLESS = [
  "bash -lc 'echo touch'",
  "bash -c 'echo hi' 'git push'",
  "sh -ec 'git status'",
  "echo '((git push))'",
];

function denyTouch() {
  const r = parseRule("Bash(touch:*)", "deny", { path: "/s.json", scope: "user" });
  if (!r.ok) throw new Error(r.why);
  return r.rule;
}

function call(command: string) {
  return { toolName: "shell", input: { command }, projectDir: "/p", homeDir: "/h" };
}

const guard = (() => {
  const c = parseCondition("Bash(git push*)");
  if (!c.ok) throw new Error(c.message);
  return c.condition;
})();

describe("the lines really run touch in sh (dash) and bash", () => {
  it.each(TOUCHING)("%s", (line) => {
    const dir = mkdtempSync(join(tmpdir(), "keel-readings-"));
    try {
      execFileSync("sh", ["-c", line.replaceAll("M", "marker")], { cwd: dir, stdio: "ignore" });
    } catch {
      // Some end in an error after touch ran (`cat <(true)` is a syntax error to dash).
    }
    const ran = existsSync(join(dir, "marker"));
    rmSync(dir, { recursive: true, force: true });
    expect(ran).toBe(true);
  });
});

describe("deny Bash(touch:*), if: Bash(git push*) and auto-approval see through them", () => {
  const deny = denyTouch();
  it.each(TOUCHING)("deny matches %s", (line) => {
    expect(deny.test(call(line.replaceAll("M", "marker")))).toBe(true);
  });
  it.each(TOUCHING)("never auto-approved: %s", (line) => {
    expect(autoApprove(line.replaceAll("M", "marker")).approved).toBe(false);
  });
  it.each(PUSHING)("the guard fires on %s", (command) => {
    expect(guard.test({ command }, "/p")).toBe(true);
    expect(autoApprove(command).approved).toBe(false);
  });
  it.each(HARMLESS)("no rule fires on %s", (command) => {
    expect(guard.test({ command }, "/p")).toBe(false);
    expect(deny.test(call(command))).toBe(false);
  });
  it("a shell's options it cannot read make every argument a possible script", () => {
    expect(deny.test(call("bash -%x 'touch marker'"))).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text
    expect(deny.test(call("${SHELL} -c 'touch marker'"))).toBe(true);
  });
  it("harmless read-only lines are still approved", () => {
    for (const line of ["ls -la", "git status && git log --oneline -5", "cat a | wc -l"]) {
      expect(autoApprove(line)).toEqual({ approved: true });
    }
  });
});

describe("brace expansion: where sh is bash (macOS's /bin/sh is bash in POSIX mode)", () => {
  // `sort {-o,out.txt} a.txt` is `sort -o out.txt a.txt` to bash: it writes. Both were approved.
  it("bash --posix writes through sort {-o,out.txt}", () => {
    const dir = mkdtempSync(join(tmpdir(), "keel-readings-"));
    writeFileSync(join(dir, "a.txt"), "b\na\n");
    execFileSync("bash", ["--posix", "-c", "sort {-o,out.txt} a.txt"], { cwd: dir });
    const wrote = existsSync(join(dir, "out.txt"));
    rmSync(dir, { recursive: true, force: true });
    expect(wrote).toBe(true);
  });
  it.each(["sort {-o,out.txt} a.txt", "find . {-delete,}", "ls {a,b}"])(
    "never auto-approved: %s",
    (line) => {
      expect(autoApprove(line)).toEqual({
        approved: false,
        reason: "it uses brace expansion, which hides what runs",
      });
    },
  );
});

const newWorld = worldPerTest();

describe("end to end: keel run --yes", () => {
  it("deny Bash(touch:*) refuses every line, and nothing is touched", async () => {
    const lines = TOUCHING.map((l, i) => l.replaceAll("M", `ran${i}`));
    const world = await newWorld(
      script(
        ...lines.map((command) => reply().tool("shell", { command })),
        reply().tool("shell", { command: "echo fine > ok.txt" }),
        reply().text("done"),
      ),
    );
    mkdirSync(join(world.root, ".claude"), { recursive: true });
    writeFileSync(
      join(world.root, ".claude", "settings.json"),
      JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }),
    );
    const r = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const statuses = JSON.parse(r.stdout).toolCalls.map((c: { status: string }) => c.status);
    expect(statuses).toEqual([...lines.map(() => "blocked"), "ok"]);
    lines.forEach((_, i) => {
      expect(existsSync(join(world.project, `ran${i}`)), lines[i]).toBe(false);
    });
    expect(existsSync(join(world.project, "ok.txt"))).toBe(true);
  });

  it("a guard hook with if: Bash(git push*) blocks every disguise", async () => {
    const world = await newWorld(
      script(
        ...PUSHING.map((c, i) => reply().tool("shell", { command: `touch ran${i}; ${c}` })),
        reply().text("ok"),
      ),
    );
    const hook = hookScript(world, "guard.sh", 'echo "no pushing" >&2; exit 2');
    writeSettings(world, { PreToolUse: [commandHook(hook, "Bash", { if: "Bash(git push*)" })] });
    const r = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
    const statuses = JSON.parse(r.stdout).toolCalls.map((c: { status: string }) => c.status);
    expect(statuses).toEqual(PUSHING.map(() => "blocked"));
    PUSHING.forEach((_, i) => {
      expect(existsSync(join(world.project, `ran${i}`))).toBe(false);
    });
  });
});
