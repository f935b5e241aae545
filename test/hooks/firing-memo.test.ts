import { describe, expect, it } from "vitest";
import { DIALECTS, shapePayload } from "../../src/hooks/dialects/index.js";
import { FiringMemo } from "../../src/hooks/firing-memo.js";
import { HookEnvironments } from "../../src/hooks/hook-env.js";
import { buildPayload } from "../../src/hooks/payload.js";

const projectDir = "/tmp/project";
const payload = () =>
  buildPayload("PreToolUse", { projectDir, tool: "shell", input: { command: "ls" } });

describe("what the hooks of one firing share", () => {
  it("shapes a payload once per dialect, and a chained (new) payload again", () => {
    const memo = new FiringMemo();
    const first = payload();
    let made = 0;
    const shape = (dialect = DIALECTS.claude, p = first) =>
      memo.shape(dialect, p, () => {
        made += 1;
        return shapePayload(dialect, p, { projectDir });
      });
    const a = shape();
    expect(shape()).toBe(a);
    expect(made).toBe(1);
    expect(shape(DIALECTS.reasonix).stdin).not.toBe(a.stdin);
    const chained = { ...first, tool_input: { command: "ls -la" } };
    expect(shape(DIALECTS.claude, chained).stdin).toContain("ls -la");
    expect(made).toBe(3);
  });
});

describe("hook environments", () => {
  const base = { PATH: "/bin", CLAUDE_PROJECT_DIR: "/elsewhere", A: "base" };

  it("lays the payload's variables over the user's and the hook file's over both", () => {
    const envs = new HookEnvironments(base);
    const shaped = shapePayload(DIALECTS.claude, payload(), { projectDir });
    expect(envs.get(shaped.env, { A: "file" })).toMatchObject({
      PATH: "/bin",
      CLAUDE_PROJECT_DIR: projectDir,
      A: "file",
    });
    expect(envs.get(shaped.env, undefined)).toMatchObject({ A: "base" });
  });

  it("shares the user's part between runs; every reader of an environment sees all of it", () => {
    const envs = new HookEnvironments(base);
    const a = envs.get({ X: "1" }, undefined);
    const b = envs.get({ X: "2" }, { A: "own" });
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
    expect(a.X).toBe("1");
    const seen: Record<string, string | undefined> = {};
    for (const k in b) seen[k] = b[k];
    expect(seen).toEqual({ PATH: "/bin", CLAUDE_PROJECT_DIR: "/elsewhere", A: "own", X: "2" });
  });
});
