/**
 * Authoring help through the real CLI (`keel hooks validate | list | test`, run in-process):
 * misspelled events and handler types get "did you mean" and fail validation; a multi-line
 * command that opens with comments is checked from its first real command; a script whose `#!`
 * interpreter is missing is reported with its file and hook; `"onError": "block"` (or the
 * settings default `hooksOnError`) makes a guard that cannot start block instead of passing;
 * `keel hooks test` gives SessionStart hooks a CLAUDE_ENV_FILE.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keel } from "../helpers/cli.js";
import { parseOnlyJson, type Sandbox, sandbox } from "./hooks-helpers.js";

let box: Sandbox | undefined;
afterEach(async () => {
  await box?.cleanup();
  box = undefined;
});

async function project(): Promise<Sandbox> {
  box = await sandbox();
  return box;
}

async function put(path: string, text: string, executable = false): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  if (executable) await chmod(path, 0o755);
  return path;
}

/** A user-level Claude Code settings file (no trust step) with `hooks`. */
function claudeSettings(p: Sandbox, hooks: unknown, extra: Record<string, unknown> = {}) {
  return put(join(p.home, ".claude", "settings.json"), JSON.stringify({ hooks, ...extra }));
}

const guard = (handler: Record<string, unknown>) => ({
  PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", ...handler }] }],
});

async function shellTest(p: Sandbox, command: string) {
  const input = JSON.stringify({ command });
  const r = await keel([
    "hooks",
    "test",
    "PreToolUse",
    "--tool",
    "shell",
    "--input",
    input,
    "--json",
    "--cwd",
    p.project,
  ]);
  return { ...r, json: parseOnlyJson(r.stdout) };
}

describe("did you mean", () => {
  it('"PreToolUze" fails validation with a suggestion, and hooks list shows it', async () => {
    const p = await project();
    await claudeSettings(p, { PreToolUze: [{ hooks: [{ type: "command", command: "true" }] }] });
    const r = await keel(["hooks", "validate", "--cwd", p.project]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /settings\.json:\d+:\d+: error: unknown hook event "PreToolUze"; these hooks never run; did you mean "PreToolUse"\?/,
    );
    expect(r.stdout).not.toContain("ok:");
    const list = await keel(["hooks", "list", "--cwd", p.project]);
    expect(list.stdout).toContain('did you mean "PreToolUse"?');
  });

  it('"type": "comand" fails validation with a suggestion', async () => {
    const p = await project();
    await claudeSettings(p, guard({ type: "comand", command: "true" }));
    const r = await keel(["hooks", "validate", "--cwd", p.project]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'unsupported hook type "comand"; this hook never runs; did you mean "command"?',
    );
  });

  it("an event Keel does not know at all is a load warning but a validate error", async () => {
    const p = await project();
    await claudeSettings(p, { TeammateNap: [{ hooks: [{ type: "command", command: "true" }] }] });
    const list = await keel(["hooks", "list", "--cwd", p.project]);
    expect(list.stdout).toContain('warning: unknown hook event "TeammateNap"');
    const r = await keel(["hooks", "validate", "--cwd", p.project, "--json"]);
    expect(r.code).toBe(1);
    expect(parseOnlyJson(r.stdout)).toMatchObject({ ok: false, errors: 1 });
  });
});

describe("multi-line commands and #! lines", () => {
  it("a command opening with comment lines is checked from its first real command", async () => {
    const p = await project();
    const script = [
      "# Read the tool call from stdin",
      "",
      "  # then decide",
      "INPUT=$(cat)",
      'echo "$INPUT" | grep -q sudo && exit 2',
      "exit 0",
    ].join("\n");
    await claudeSettings(p, guard({ command: script }));
    const ok = await keel(["hooks", "validate", "--cwd", p.project]);
    expect(ok.stdout).not.toContain("command not found: #");
    expect(ok.code).toBe(0);
    // The first real command is still checked.
    await claudeSettings(p, guard({ command: "# check it\nno-such-guard-xyz --strict" }));
    const bad = await keel(["hooks", "validate", "--cwd", p.project]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("command not found: no-such-guard-xyz (not on PATH)");
  });

  it.each([
    [
      "#!/no/such/interpreter\necho hi\n",
      "interpreter not found: /no/such/interpreter (named by the #! line of",
    ],
    [
      "#!/usr/bin/env no-such-interp-xyz\necho hi\n",
      "interpreter not found: no-such-interp-xyz (named by the #! line of",
    ],
    ["#!/bin/sh\r\necho hi\r\n", "ends in a carriage return (CRLF line endings"],
  ])(
    "a script whose #! line cannot start it is reported with file and hook: %j",
    async (text, said) => {
      const p = await project();
      const script = await put(join(p.project, "hooks", "guard.sh"), text, true);
      await claudeSettings(p, guard({ command: script }));
      const r = await keel(["hooks", "validate", "--cwd", p.project]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/\.claude[/\\]settings\.json:\d+:\d+: error: PreToolUse hook: /);
      expect(r.stdout).toContain(said);
      expect(r.stdout).toContain("guard.sh");
    },
  );

  it("a script with a good #! line validates", async () => {
    const p = await project();
    const script = await put(
      join(p.project, "hooks", "guard.sh"),
      "#!/usr/bin/env sh\nexit 0\n",
      true,
    );
    await claudeSettings(p, guard({ command: script }));
    const r = await keel(["hooks", "validate", "--cwd", p.project]);
    expect(r.code).toBe(0);
  });
});

describe('"onError": "block"', () => {
  async function brokenGuard(p: Sandbox): Promise<string> {
    return put(join(p.project, "hooks", "guard.py"), "#!/no/such/python3\nprint('never')\n", true);
  }

  it("a guard whose interpreter is missing passes silently by default", async () => {
    const p = await project();
    await claudeSettings(p, guard({ command: await brokenGuard(p) }));
    const r = await shellTest(p, "rm -rf build");
    expect(r.json.decision).not.toBe("deny");
    expect(r.json.decision).not.toBe("block");
  });

  it("on the handler, it blocks the tool call instead", async () => {
    const p = await project();
    await claudeSettings(p, guard({ command: await brokenGuard(p), onError: "block" }));
    const r = await shellTest(p, "rm -rf build");
    expect(r.code).toBe(2);
    expect(r.json.decision).toBe("deny");
    expect(String(r.json.reason)).toContain('"onError": "block"');
    expect(String(r.json.reason)).toContain("exit 127");
  });

  it("hooksOnError in Keel settings is the default for every hook, of every dialect", async () => {
    const p = await project();
    await put(join(p.keelHome, "settings.json"), JSON.stringify({ hooksOnError: "block" }));
    await claudeSettings(p, guard({ command: "no-such-guard-xyz" }));
    const r = await shellTest(p, "ls");
    expect(r.code).toBe(2);
    expect(r.json.decision).toBe("deny");
  });

  it("a guard killed by a signal blocks; one that exits 1 does not (it ran)", async () => {
    const p = await project();
    await claudeSettings(p, guard({ command: "kill -9 $$", onError: "block" }));
    const killed = await shellTest(p, "ls");
    expect(killed.json.decision).toBe("deny");
    expect(String(killed.json.reason)).toContain("killed by SIGKILL");
    await claudeSettings(p, guard({ command: "exit 1", onError: "block" }));
    const ran = await shellTest(p, "ls");
    expect(ran.code).toBe(0);
    expect(ran.json.decision).not.toBe("deny");
  });
});

describe("keel hooks test: CLAUDE_ENV_FILE", () => {
  it("a SessionStart hook under set -u gets an owner-only file, removed afterwards", async () => {
    const p = await project();
    const script = await put(
      join(p.project, "hooks", "load-context.sh"),
      [
        "#!/bin/sh",
        "set -u",
        'echo "export PROJECT_KIND=node" >> "$CLAUDE_ENV_FILE"',
        'printf "%s %s" "$CLAUDE_ENV_FILE" "$(stat -c %a "$CLAUDE_ENV_FILE")"',
      ].join("\n"),
      true,
    );
    await claudeSettings(p, {
      SessionStart: [{ hooks: [{ type: "command", command: script }] }],
    });
    const r = await keel(["hooks", "test", "SessionStart", "--json", "--cwd", p.project]);
    expect(r.code).toBe(0);
    const json = parseOnlyJson(r.stdout) as { runs: { outcome: string; stdout: string }[] };
    const [path, mode] = (json.runs[0]?.stdout ?? "").split(" ");
    expect(json.runs[0]?.outcome).toBe("pass");
    expect(mode).toBe("600");
    expect(path).toMatch(/sessionstart-hook\.sh$/);
    expect(existsSync(String(path))).toBe(false);
  });
});
