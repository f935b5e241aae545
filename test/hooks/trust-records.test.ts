/**
 * The one reader and writer of Keel's trust stores (hooks, MCP servers, permission allow rules):
 * a damaged store trusts nothing and is never written over (it holds other projects' trust), and
 * two processes writing at once both land.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { permissionTrustPath, setPermissionRulesTrust } from "../../src/agent/permissions/rules.js";
import { isTrusted, setTrust, trustStorePath } from "../../src/hooks/trust.js";
import {
  DamagedTrustStoreError,
  readTrustRecords,
  writeTrustRecord,
} from "../../src/hooks/trust-records.js";
import { loadMcpConfig, mcpTrustPath, setMcpTrust } from "../../src/mcp/index.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), "keel-trust-records-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("trust records", () => {
  it("keeps every other project's record and writes the file 0600", async () => {
    const home = fresh();
    await setTrust(home, "/work/a", "hash-a");
    await setTrust(home, "/work/b", "hash-b");
    await setTrust(home, "/work/a", null);
    expect(readTrustRecords(trustStorePath(home))).toEqual({
      ok: true,
      projects: { "/work/b": "hash-b" },
    });
    expect(statSync(trustStorePath(home)).mode & 0o777).toBe(0o600);
  });

  it("reads a damaged store as nothing trusted, saying what is wrong and where", async () => {
    const home = fresh();
    writeFileSync(trustStorePath(home), '{"version": 1, "projects": {"/work/a": "h",}}\n');
    const read = readTrustRecords(trustStorePath(home));
    expect(read.ok).toBe(false);
    expect(read.projects).toEqual({});
    expect(read.ok ? "" : read.problem).toBe(
      `${trustStorePath(home)}: invalid JSON: trailing comma at 1:44`,
    );
    expect(await isTrusted(home, "/work/a", "h")).toBe(false);
    writeFileSync(trustStorePath(home), '{"version": 2, "projects": {}}');
    const wrong = readTrustRecords(trustStorePath(home));
    expect(wrong.ok ? "" : wrong.problem).toMatch(/not a Keel trust store/);
  });

  it("never writes over a damaged store: hooks, MCP and permission trust all refuse", async () => {
    const home = fresh();
    const project = fresh();
    const damaged = '{"version": 1, "projects": {"/work/other": "kept"\n';
    for (const path of [trustStorePath(home), mcpTrustPath(home), permissionTrustPath(home)]) {
      writeFileSync(path, damaged);
    }
    await expect(setTrust(home, project, "h")).rejects.toThrow(DamagedTrustStoreError);
    await expect(setTrust(home, project, "h")).rejects.toThrow(
      `${trustStorePath(home)}: invalid JSON`,
    );
    writeFileSync(
      join(project, ".mcp.json"),
      JSON.stringify({ mcpServers: { s: { command: "true" } } }),
    );
    const config = await loadMcpConfig({ projectDir: project, keelHome: home });
    await expect(
      setMcpTrust({ keelHome: home, projectDir: project, config, trust: true }),
    ).rejects.toThrow(DamagedTrustStoreError);
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(project, ".claude"));
    writeFileSync(
      join(project, ".claude/settings.json"),
      JSON.stringify({ permissions: { allow: ["Bash(npm test)"] } }),
    );
    expect(() =>
      setPermissionRulesTrust({ keelHome: home, projectDir: project, homeDir: home, trust: true }),
    ).toThrow(DamagedTrustStoreError);
    for (const path of [trustStorePath(home), mcpTrustPath(home), permissionTrustPath(home)]) {
      expect(readFileSync(path, "utf8")).toBe(damaged);
    }
  });

  it("takes over a lock left by a process that died holding it", () => {
    const home = fresh();
    const path = join(home, "trust.json");
    writeFileSync(`${path}.lock`, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    writeTrustRecord(path, "/work/a", "h");
    expect(readTrustRecords(path).projects).toEqual({ "/work/a": "h" });
    expect(() => statSync(`${path}.lock`)).toThrow();
  });

  it("loses no record when two processes write at once", async () => {
    const home = fresh();
    const path = join(home, "trust.json");
    const script = join(home, "writer.ts");
    const module = join(REPO, "src/hooks/trust-records.ts");
    writeFileSync(
      script,
      `import { writeTrustRecord } from ${JSON.stringify(module)};
const [path, tag] = process.argv.slice(2);
for (let i = 0; i < 40; i++) writeTrustRecord(path, "/work/" + tag + i, "h" + i);
`,
    );
    const run = (tag: string) =>
      new Promise<number | null>((done) => {
        const child = spawn(process.execPath, ["--import", "tsx", script, path, tag], {
          cwd: REPO,
          stdio: "inherit",
        });
        child.on("exit", done);
      });
    expect(await Promise.all([run("a"), run("b")])).toEqual([0, 0]);
    expect(Object.keys(readTrustRecords(path).projects)).toHaveLength(80);
  }, 30_000);
});
