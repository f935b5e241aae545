import { describe, expect, it } from "vitest";
import { DIALECTS, shapePayload } from "../../src/hooks/dialects/index.js";
import { FiringMemo } from "../../src/hooks/firing-memo.js";
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

  it("builds one environment per shaped payload and hook file, in that order of precedence", () => {
    const memo = new FiringMemo();
    const shaped = shapePayload(DIALECTS.claude, payload(), { projectDir });
    const base = { PATH: "/bin", CLAUDE_PROJECT_DIR: "/elsewhere", A: "base" };
    const own = { A: "file" };
    const env = memo.env(base, shaped, own);
    expect(env).toMatchObject({ PATH: "/bin", CLAUDE_PROJECT_DIR: projectDir, A: "file" });
    expect(memo.env(base, shaped, own)).toBe(env);
    expect(memo.env(base, shaped, undefined)).toMatchObject({ A: "base" });
    expect(memo.env(base, shaped, { A: "other" })).toMatchObject({ A: "other" });
  });
});
