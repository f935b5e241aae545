/** The remote transports against server-everything (on 127.0.0.1), and server-filesystem over stdio. */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/mcp/index.js";
import { FILESYSTEM, startEverythingHttp, stdioEntry } from "./servers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function managerFor(servers: Parameters<typeof McpManager.start>[0]["servers"]) {
  const m = await McpManager.start({ servers, env: process.env, cwd: process.cwd() });
  cleanups.push(() => m.close());
  return m;
}

const signal = () => new AbortController().signal;

describe("remote transports (server-everything)", () => {
  for (const [transport, type] of [
    ["streamableHttp", "http"],
    ["sse", "sse"],
  ] as const) {
    it(`${type}: connects, lists and calls echo`, async () => {
      const server = await startEverythingHttp(transport);
      cleanups.push(() => server.stop());
      const m = await managerFor([
        {
          name: "remote",
          file: "test",
          scope: "user",
          config: { type, url: server.url, headers: { "X-Test": "1" } },
        },
      ]);
      expect(m.statuses()[0]).toMatchObject({ state: "connected", transport: type });
      const echo = m.tools().find((t) => t.name === "mcp__remote__echo");
      const r = await echo?.run({ message: `over ${type}` }, { signal: signal() });
      expect(r).toMatchObject({ content: `Echo: over ${type}`, isError: false });
    });
  }

  it("a URL nobody answers fails with a reason; the session goes on", async () => {
    const m = await managerFor([
      {
        name: "gone",
        file: "test",
        scope: "user",
        config: { type: "http", url: "http://127.0.0.1:9/mcp", headers: {} },
      },
    ]);
    expect(m.statuses()[0]).toMatchObject({ state: "failed" });
    expect(m.statuses()[0]?.error).toBeTruthy();
  });
});

describe("server-filesystem (stdio)", () => {
  it("reads a file in the allowed directory", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "keel-mcp-fs-")));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "hello.txt"), "hello from the filesystem server\n");
    const m = await managerFor([stdioEntry("fs", FILESYSTEM, [dir])]);
    const names = m.tools().map((t) => t.name);
    expect(names).toContain("mcp__fs__read_text_file");
    const read = m.tools().find((t) => t.name === "mcp__fs__read_text_file");
    expect(read?.mcp.readOnly).toBe(true);
    const r = await read?.run({ path: join(dir, "hello.txt") }, { signal: signal() });
    expect(r?.content).toContain("hello from the filesystem server");
    const outside = await read?.run({ path: "/etc/hostname" }, { signal: signal() });
    expect(outside?.isError).toBe(true);
  });
});
