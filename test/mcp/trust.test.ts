import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isMcpTrusted, loadMcpConfig, mcpTrustPath, setMcpTrust } from "../../src/mcp/index.js";

let root: string;
let projectDir: string;
let keelHome: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "keel-mcp-trust-")));
  projectDir = join(root, "project");
  keelHome = join(root, "home");
  mkdirSync(join(projectDir, "tools"), { recursive: true });
  mkdirSync(keelHome);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const trusted = async () =>
  isMcpTrusted({ keelHome, projectDir, config: await loadMcpConfig({ projectDir, keelHome }) });
const trust = async () =>
  setMcpTrust({
    keelHome,
    projectDir,
    config: await loadMcpConfig({ projectDir, keelHome }),
    trust: true,
  });

describe("MCP trust", () => {
  it("covers the definitions and the project files a server runs; a change to either untrusts", async () => {
    writeFileSync(join(projectDir, "tools", "server.mjs"), "// v1\n");
    const mcpJson = join(projectDir, ".mcp.json");
    writeFileSync(
      mcpJson,
      JSON.stringify({ mcpServers: { local: { command: "node", args: ["tools/server.mjs"] } } }),
    );
    expect(await trusted()).toBe(false);
    await trust();
    expect(await trusted()).toBe(true);
    expect(statSync(mcpTrustPath(keelHome)).mode & 0o777).toBe(0o600);

    appendFileSync(join(projectDir, "tools", "server.mjs"), "process.exit(1)\n");
    expect(await trusted()).toBe(false);
    await trust();
    expect(await trusted()).toBe(true);

    writeFileSync(
      mcpJson,
      JSON.stringify({ mcpServers: { local: { command: "node", args: ["tools/other.mjs"] } } }),
    );
    expect(await trusted()).toBe(false);
  });

  it("a project with only user servers needs no trust", async () => {
    writeFileSync(
      join(keelHome, "settings.json"),
      JSON.stringify({ mcpServers: { mine: { command: "x" } } }),
    );
    expect(await trusted()).toBe(true);
  });
});
