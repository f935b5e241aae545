/**
 * Text from a repository cannot drive the terminal (issue 26): a project whose hook settings
 * and `.mcp.json` hold OSC 52 (clipboard write), an 8-bit CSI, bidi overrides and zero-width
 * characters in event names, matchers, commands and server names, run through the built CLI
 * (`node bin/keel.js …`, so the real sink in src/cli/stdout.ts is used). No raw control, bidi or
 * zero-width character may reach stdout or stderr; the human output shows them as escapes, and
 * `--json` stays JSON that parses back to the same values. Needs `npm run build`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = resolve(__dirname, "../../bin/keel.js");

const OSC52 = "\x1b]52;c;ZXZpbA==\x07";
const C1_CSI = "\u009b2J";
const NASTY = `${OSC52}${C1_CSI}\u202e\u2066\u061c\u200b\u200e\ufeff\x1b[2J`;
/** Anything a terminal could act on, or that hides or reorders text. */
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

let root: string;
let project: string;
let env: NodeJS.ProcessEnv;
const eventName = `PreToolUse${NASTY}`;
const matcher = `Bash${NASTY}`;
const command = `echo ok${NASTY}`;
const serverName = `docs${NASTY}`;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "keel-sanitizer-")));
  project = join(root, "project");
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(join(root, "home"), { recursive: true });
  mkdirSync(join(root, "keel-home"), { recursive: true });
  writeFileSync(
    join(project, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        [eventName]: [{ matcher, hooks: [{ type: "command", command }] }],
        PreToolUse: [{ matcher, hooks: [{ type: "command", command }] }],
      },
    }),
  );
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        [serverName]: { command: `no-such-server${NASTY}`, args: [NASTY] },
        docs: { command: `no-such-server${NASTY}` },
      },
    }),
  );
  env = {
    PATH: process.env.PATH,
    HOME: join(root, "home"),
    KEEL_HOME: join(root, "keel-home"),
    // doctor's endpoint check fails at once, on loopback.
    KEEL_BASE_URL: "http://127.0.0.1:9",
    DEEPSEEK_API_KEY: "sk-test",
    COLUMNS: "80",
  };
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function keel(args: string[], input = "") {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: project,
    env,
    input,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The first raw character found, as its code, for a readable failure. */
function rawIn(text: string): string | null {
  const m = RAW.exec(text);
  return m ? `U+${(m[0].codePointAt(0) ?? 0).toString(16)} at ${m.index}` : null;
}

const HUMAN: string[][] = [
  ["hooks", "list"],
  ["hooks", "validate"],
  ["hooks", "trust"],
  ["hooks", "list"],
  ["doctor"],
  ["mcp", "list"],
];
const JSON_OUT: string[][] = [
  ["hooks", "list", "--json"],
  ["hooks", "validate", "--json"],
  ["doctor", "--json"],
  ["mcp", "list", "--json"],
];

describe("no raw control, bidi or zero-width character reaches the terminal", () => {
  for (const args of HUMAN) {
    it(`keel ${args.join(" ")}`, () => {
      const r = keel([...args, "--cwd", project], "y\n");
      expect(r.stdout + r.stderr, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).not.toBe("");
      expect(rawIn(r.stdout), r.stdout).toBeNull();
      expect(rawIn(r.stderr), r.stderr).toBeNull();
    });
  }

  for (const args of JSON_OUT) {
    it(`keel ${args.join(" ")}: parses, and no raw character`, () => {
      const r = keel([...args.slice(0, -1), "--cwd", project, "--json"]);
      expect(rawIn(r.stdout), r.stdout).toBeNull();
      expect(rawIn(r.stderr), r.stderr).toBeNull();
      expect(() => JSON.parse(r.stdout), r.stdout).not.toThrow();
    });
  }

  it("the human listing SHOWS what is there (escapes), and --json keeps the exact values", () => {
    const human = keel(["hooks", "list", "--cwd", project]).stdout;
    expect(human).toContain("\\e]52;c;ZXZpbA==\\x07\\x9b2J\\u{202e}\\u{2066}\\u{61c}\\u{200b}");
    const json = JSON.parse(keel(["hooks", "list", "--cwd", project, "--json"]).stdout);
    const hook = json.hooks.find((h: { event: string }) => h.event === "PreToolUse");
    expect(hook.matcher).toBe(matcher);
    expect(hook.handler.command).toBe(command);
  });

  it("keel mcp list shows the server's name with its characters escaped", () => {
    const r = keel(["mcp", "list", "--cwd", project]);
    expect(r.stdout + r.stderr).toContain("docs\\e]52;c;ZXZpbA==\\x07\\x9b2J\\u{202e}");
  });
});
