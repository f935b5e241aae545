/**
 * A library caller that builds the tools with no `env` (`createBuiltinTools({ cwd })`, the
 * public entry point in src/index.ts) still gets a child environment from the one builder
 * (base/child-env.ts): the provider key in Keel's own environment never reaches a command,
 * foreground or background.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AnyTool, createBuiltinTools } from "../../src/index.js";

const KEY = "sk-library-caller-secret-0123456789";
let dir: string;
let saved: { key?: string; token?: string };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "keel-shell-env-"));
  saved = { key: process.env.DEEPSEEK_API_KEY, token: process.env.KEEL_GITHUB_TOKEN };
  process.env.DEEPSEEK_API_KEY = KEY;
  process.env.KEEL_GITHUB_TOKEN = "ghp-library-caller-token-98765";
  process.env.KEEL_TEST_HARMLESS = "visible-value";
});

afterEach(() => {
  for (const [name, value] of [
    ["DEEPSEEK_API_KEY", saved.key],
    ["KEEL_GITHUB_TOKEN", saved.token],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  delete process.env.KEEL_TEST_HARMLESS;
  rmSync(dir, { recursive: true, force: true });
});

function tool(tools: AnyTool[], name: string): AnyTool {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

const PRINT = 'echo "key=$DEEPSEEK_API_KEY token=$KEEL_GITHUB_TOKEN other=$KEEL_TEST_HARMLESS"';

describe("the shell tool without a given env", () => {
  it("a foreground command does not see the provider key or a KEEL_*_TOKEN", async () => {
    const tools = createBuiltinTools({ cwd: dir });
    const signal = new AbortController().signal;
    const r = await tool(tools, "shell").run({ command: PRINT }, { signal });
    expect(r.content).toContain("other=visible-value"); // the control: the env is there
    expect(r.content).not.toContain(KEY);
    expect(r.content).not.toContain("ghp-library-caller-token");
    for (const t of tools) await t.dispose?.();
  });

  it("a background job does not see them either", async () => {
    const tools = createBuiltinTools({ cwd: dir });
    const signal = new AbortController().signal;
    const started = await tool(tools, "shell").run(
      { command: PRINT, run_in_background: true },
      { signal },
    );
    const id = /\bbg\d+\b/.exec(started.content)?.[0];
    expect(id, started.content).toBeDefined();
    let out = "";
    for (let i = 0; i < 50 && !out.includes("other="); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const got = await tool(tools, "shell_output").run({ id }, { signal });
      out += got.content;
    }
    expect(out).toContain("other=visible-value");
    expect(out).not.toContain(KEY);
    expect(out).not.toContain("ghp-library-caller-token");
    for (const t of tools) await t.dispose?.();
  });
});
