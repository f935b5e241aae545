/** The "allow always" label comes from the function that makes the key the agent remembers. */
import { expect, it } from "vitest";
import { allowScope } from "../../src/agent/permissions/modes.js";

it("says what each tool's answer allows", () => {
  expect(allowScope("edit_file", "write", "src/a.ts").label).toBe(
    "Allow all edit_file calls for this session, on any file",
  );
  expect(allowScope("shell", "shell", "touch a.txt").label).toBe(
    "Always allow `touch a.txt` for this session",
  );
  expect(allowScope("shell", "shell", `echo ${"x".repeat(60)}`).label).toBe(
    "Always allow this exact command for this session",
  );
  expect(allowScope("mcp__db__query", "write", undefined).label).toBe(
    "Allow all mcp__db__query calls for this session, with any arguments",
  );
});

it("keys the answer: one exact shell command, or the tool whatever its arguments", () => {
  expect(allowScope("shell", "shell", "ls").key).toBe("shell:ls");
  expect(allowScope("write_file", "write", "a.txt").key).toBe("write_file");
  expect(allowScope("mcp__x__y", "write", undefined).key).toBe("mcp__x__y");
});

it("states the same scope as a rule (PermissionRequest's permission_suggestions)", () => {
  // No wider than the key: the exact command, the host, or the whole tool.
  expect(allowScope("shell", "shell", "npm test").rule).toEqual({
    toolName: "shell",
    ruleContent: "npm test",
  });
  expect(allowScope("web_fetch", "network", "https://Docs.Example.com/a").rule).toEqual({
    toolName: "web_fetch",
    ruleContent: "domain:docs.example.com",
  });
  expect(allowScope("edit_file", "write", "src/a.ts").rule).toEqual({ toolName: "edit_file" });
  expect(allowScope("mcp__db__query", "write", undefined).rule).toEqual({
    toolName: "mcp__db__query",
  });
});
