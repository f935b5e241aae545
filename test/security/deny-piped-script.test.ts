/**
 * attacks6 class D: a `Bash(rm:*)` deny rule and a user's `if: shell(rm*)` guard against a shell
 * that reads its script from stdin, fed text whose meaning is not what the line spells —
 * printf's octal escapes and formats, dash's echo decoding `\0162`, a filter (`rev`) between,
 * a file, a process substitution, `eval` of an expansion. Through `keel run --yes` against the
 * simulator; each command really deletes its file when nothing stops it.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest, writeSettings } from "../agent/harness.js";
import { runSlips as runDenySlips } from "./deny-slips.js";

const newWorld = worldPerTest();

/** Each deletes `vN` (N its place in the list) when it runs; `VICTIM_REVERSED` for rev. */
const SLIPS = [
  "printf '\\162m VICTIM' | sh",
  "echo '\\0162m VICTIM' | dash",
  "printf '%sm VICTIM' r | sh",
  "echo VICTIM_REVERSED | rev | sh",
  "printf '\\162m VICTIM' | bash -s",
  "printf '\\162m VICTIM' | . /dev/stdin",
  "printf '\\162m VICTIM' > s.txt; sh < s.txt",
  // The tool's sh has no `<(…)`: bash runs it.
  "bash -c \"bash <(printf '\\162m VICTIM')\"",
  "eval \"$(printf '\\162m VICTIM')\"",
];

function slips(): string[] {
  return SLIPS.map((s, i) =>
    s
      .replaceAll("VICTIM_REVERSED", [...`rm v${i}`].reverse().join(""))
      .replaceAll("VICTIM", `v${i}`),
  );
}

async function runSlips(settings: Record<string, unknown>) {
  return runDenySlips(newWorld, slips(), settings);
}

describe("Bash deny rules: a shell reading a script the line does not show exactly", () => {
  it("with Bash(rm:*) denied, --yes runs none of them", async () => {
    const { w, statuses, kept } = await runSlips({ permissions: { deny: ["Bash(rm:*)"] } });
    expect(statuses).toEqual(SLIPS.map(() => "blocked"));
    expect(kept).toEqual(SLIPS.map(() => true));
    const told = JSON.stringify(w.sim.requests[1]?.messages);
    expect(told).toContain("reads a script from its input, which the line does not show exactly");
  });

  it("control: without the rule, each of them deletes its file", async () => {
    const { kept } = await runSlips({});
    expect(kept).toEqual(SLIPS.map(() => false));
  });

  it("control: with the rule, scripts the line shows exactly still run under --yes", async () => {
    const commands = [
      "echo 'ls -a' | sh",
      "printf 'ls' | sh",
      "sh <<'EOF'\nls\nEOF",
      "bash script.sh",
      "cat f.txt | grep a",
    ];
    const w = await newWorld(
      script(...commands.map((command) => reply().tool("shell", { command })), reply().text("ok")),
    );
    writeFileSync(join(w.project, "f.txt"), "a b\n");
    writeFileSync(join(w.project, "script.sh"), "ls\n");
    writeFileSync(join(w.home, "settings.json"), '{"permissions":{"deny":["Bash(rm:*)"]}}');
    const r = await keel(w, ["run", "go", "--yes", "--output-format", "json"]);
    const statuses = JSON.parse(r.stdout).toolCalls.map((c: { status: string }) => c.status);
    expect(statuses).toEqual(commands.map(() => "ok"));
  });
});

describe("if: shell(rm*) guard hook: a piped script it cannot read runs the guard", () => {
  it("blocks the printf, echo-octal and rev spellings; a plain echo of ls runs", async () => {
    const guarded = slips().slice(0, 4);
    const w = await newWorld(
      script(
        ...guarded.map((command) => reply().tool("shell", { command })),
        reply().tool("shell", { command: "echo 'touch allowed' | sh" }),
        reply().text("ok"),
      ),
    );
    for (let i = 0; i < guarded.length; i++) writeFileSync(join(w.project, `v${i}`), "keep\n");
    const guard = hookScript(w, "guard.sh", 'echo "no rm" >&2; exit 2');
    writeSettings(w, { PreToolUse: [commandHook(guard, "shell", { if: "shell(rm*)" })] });
    const r = await keel(w, ["run", "go", "--yes", "--output-format", "json"]);
    const statuses = JSON.parse(r.stdout).toolCalls.map((c: { status: string }) => c.status);
    expect(statuses).toEqual([...guarded.map(() => "blocked"), "ok"]);
    guarded.forEach((_, i) => {
      expect(existsSync(join(w.project, `v${i}`))).toBe(true);
    });
    expect(existsSync(join(w.project, "allowed"))).toBe(true);
  });
});
