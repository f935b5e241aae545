/** The "allow always" label comes from the function that makes the key the agent remembers. */
import { expect, it } from "vitest";
import { allowKey, allowScope } from "../../../src/agent/permissions.js";
import { alwaysLabel } from "../../../src/cli/tui/allow-label.js";
import { createBuiltinTools } from "../../../src/tools/registry.js";

const tools = createBuiltinTools({ cwd: "/p" });
const ask = (toolName: string, input: Record<string, unknown>) =>
  alwaysLabel({ toolName, input, summary: toolName, reason: "" }, tools);

it("says what each tool's answer allows", () => {
  expect(ask("edit_file", { path: "src/a.ts", old_string: "a", new_string: "b" })).toBe(
    "Allow all edit_file calls for this session, on any file",
  );
  expect(ask("shell", { command: "touch a.txt" })).toBe(
    "Always allow `touch a.txt` for this session",
  );
  expect(ask("shell", { command: `echo ${"x".repeat(60)}` })).toBe(
    "Always allow this exact command for this session",
  );
  expect(ask("mcp__db__query", { sql: "DROP TABLE t" })).toBe(
    "Allow all mcp__db__query calls for this session, with any arguments",
  );
});

it("keys the answer as allowKey does", () => {
  for (const [name, kind, primary] of [
    ["shell", "shell", "ls -la"],
    ["write_file", "write", "a.txt"],
    ["mcp__x__y", "write", undefined],
  ] as const) {
    expect(allowScope(name, kind, primary).key).toBe(allowKey(name, kind, primary));
  }
  expect(allowKey("shell", "shell", "ls")).toBe("shell:ls");
  expect(allowKey("write_file", "write", "a.txt")).toBe("write_file");
});
