/**
 * One way to read a settings file's JSON for every reader (hooks, permission rules, MCP servers,
 * Keel's own settings): a byte-order mark and comments are accepted, and a comment never moves
 * where a real error is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadPermissionRules } from "../../src/agent/permissions/rules.js";
import { loadSessionSettings } from "../../src/agent/settings.js";
import { parseJsonText, parseSettingsJson } from "../../src/hooks/config/parse.js";
import { loadMcpConfig } from "../../src/mcp/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const COMMENTED = `\uFEFF{
  // Gemini CLI users write comments
  "a": "http://not-a-comment", /* nor "this" */
  "b": [1, 2] // trailing
}
`;

describe("settings JSON", () => {
  it("accepts a byte-order mark and // and /* */ comments, not inside strings", () => {
    expect(parseSettingsJson(COMMENTED)).toEqual({ a: "http://not-a-comment", b: [1, 2] });
    expect(parseSettingsJson('{"a": "/* kept */ // kept"}')).toEqual({ a: "/* kept */ // kept" });
  });

  it("reports a real error at its own place when comments come before it", () => {
    const parsed = parseJsonText('{\n  // note\n  "a": 1,\n}\n', "/x/settings.json");
    expect(parsed).toEqual({
      problem: expect.objectContaining({
        line: 4,
        column: 1,
        message: "invalid JSON: trailing comma at 4:1",
      }),
    });
    expect(() => parseSettingsJson("{ // only\n")).toThrow(SyntaxError);
  });

  it("permission rules, MCP servers and Keel settings read a commented file too", async () => {
    const project = mkdtempSync(join(tmpdir(), "keel-settings-json-"));
    dirs.push(project);
    const home = join(project, "home");
    mkdirSync(join(project, ".claude"), { recursive: true });
    mkdirSync(join(project, ".keel"), { recursive: true });
    writeFileSync(
      join(project, ".claude/settings.json"),
      '{\n  // keep secrets out\n  "permissions": {"deny": ["Read(./.env)"]}\n}\n',
    );
    writeFileSync(
      join(project, ".mcp.json"),
      '{ /* servers */ "mcpServers": {"s": {"command": "true"}} }',
    );
    writeFileSync(
      join(project, ".keel/settings.json"),
      '{ // compaction\n "compaction": {"thresholdTokens": 5000} }',
    );
    const rules = loadPermissionRules({ projectDir: project, keelHome: home, homeDir: home });
    expect(rules.rules.map((r) => r.text)).toEqual(["Read(./.env)"]);
    const mcp = await loadMcpConfig({ projectDir: project, keelHome: home });
    expect(mcp.servers.map((s) => s.name)).toEqual(["s"]);
    expect(mcp.problems).toEqual([]);
    const settings = loadSessionSettings({ projectDir: project, keelHome: home });
    expect(settings.warnings).toEqual([]);
    expect(settings.settings.compaction).toMatchObject({ thresholdTokens: 5000 });
  });

  it("keel mcp add/remove leave a commented file as it is, saying why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keel-settings-json-"));
    dirs.push(dir);
    const path = join(dir, ".mcp.json");
    const text = '{ // mine\n "mcpServers": {"s": {"command": "true"}} }\n';
    writeFileSync(path, text);
    const { addServer, removeServer } = await import("../../src/cli/mcp/edit-config.js");
    expect(await addServer(path, "t", { command: "true" })).toBe(
      `${path}: has comments, which rewriting it would lose; not changed (edit it by hand)`,
    );
    expect(await removeServer(path, "s")).toMatch(/has comments/);
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});
