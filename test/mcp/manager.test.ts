// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} strings are the syntax under test
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpManager } from "../../src/mcp/index.js";
import { isAlive } from "../tools/helpers.js";
import { EVERYTHING, FAULT_SERVER, faultEntry, stdioEntry } from "./servers.js";

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

async function start(opts: Omit<Parameters<typeof McpManager.start>[0], "env" | "cwd">) {
  const notices: string[] = [];
  const m = await McpManager.start({
    env: process.env,
    cwd: process.cwd(),
    onNotice: (_level, text) => notices.push(text),
    ...opts,
  });
  managers.push(m);
  return { m, notices };
}

const signal = () => new AbortController().signal;

/** Whether a process with this pid exists. */
describe("McpManager against server-everything (stdio)", () => {
  it("lists its tools as mcp__everything__<tool>, sorted, and calls echo", async () => {
    const { m } = await start({ servers: [stdioEntry("everything", EVERYTHING, ["stdio"])] });
    const names = m.tools().map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toEqual([...names].sort());
    const echo = m.tools().find((t) => t.name === "mcp__everything__echo");
    expect(echo?.parameters).toMatchObject({ type: "object", required: ["message"] });
    expect(echo?.parameters).not.toHaveProperty("$schema");
    expect(echo?.mcp.readOnly).toBe(true);
    const r = await echo?.run({ message: "hi there" }, { signal: signal() });
    expect(r).toMatchObject({ content: "Echo: hi there", isError: false });
  });

  it("summarizes an image result instead of dropping it", async () => {
    const { m } = await start({ servers: [stdioEntry("everything", EVERYTHING, ["stdio"])] });
    const img = m.tools().find((t) => t.name === "mcp__everything__get-tiny-image");
    const r = await img?.run({}, { signal: signal() });
    expect(r?.content).toMatch(/\[image: image\/png, \d+ bytes\]/);
  });
});

describe("McpManager faults", () => {
  it("a server that crashes at start is reported with its stderr tail; the others still run", async () => {
    const { m } = await start({
      servers: [faultEntry("broken", "crash-start"), faultEntry("fine", "ok")],
    });
    const [broken, fine] = m.statuses();
    expect(broken).toMatchObject({ name: "broken", state: "failed" });
    expect(broken?.stderrTail).toContain("cannot open the database");
    expect(fine).toMatchObject({ name: "fine", state: "connected" });
    expect(m.tools().map((t) => t.name)).toEqual(["mcp__fine__echo", "mcp__fine__write_note"]);
    expect(
      m
        .startupNotices()
        .map((n) => n.text)
        .join("\n"),
    ).toMatch(/MCP server broken failed: .*\n.*cannot open the database/s);
  });

  it("a hanging server times out within the bounded wait and is killed at close", async () => {
    const waits: string[][] = [];
    // The deadline is a timer this test moves: it passes once "fine" has answered, however
    // long a loaded machine takes to start a process (a real 1.5 s could pass before that).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let m: McpManager;
    try {
      const starting = start({
        servers: [faultEntry("stuck", "hang"), faultEntry("fine", "ok")],
        startupTimeoutMs: 1500,
        onWaiting: (names) => waits.push([...names].sort()),
      });
      while (waits.at(-1)?.join() !== "stuck") await new Promise((r) => setImmediate(r));
      vi.advanceTimersByTime(1500);
      ({ m } = await starting);
    } finally {
      vi.useRealTimers();
    }
    // Who the wait is for, as it changes: both, then the one that never answers, then no one.
    expect(waits).toEqual([["fine", "stuck"], ["stuck"], []]);
    const stuck = m.statuses().find((s) => s.name === "stuck");
    expect(stuck).toMatchObject({ state: "timeout" });
    expect(stuck?.error).toMatch(
      /^did not answer within 1\.5 s; it runs with a minimal environment/,
    );
    // What it wrote before or after the deadline shows up in its status.
    await expect
      .poll(() => m.statuses().find((s) => s.name === "stuck")?.stderrTail, { timeout: 15_000 })
      .toContain("hanging");
    expect(m.tools().map((t) => t.name)).toEqual(["mcp__fine__echo", "mcp__fine__write_note"]);
    await m.close(); // must return: the pending handshake is aborted and the process killed
  });

  it("quitting while a server starts ends the wait at once; close stops it without the shutdown grace", async () => {
    const quit = new AbortController();
    const began = Date.now();
    setTimeout(() => quit.abort(), 500);
    const { m } = await start({
      servers: [faultEntry("stuck", "hang"), faultEntry("fine", "ok")],
      startupTimeoutMs: 60_000,
      signal: quit.signal,
    });
    expect(Date.now() - began).toBeLessThan(30_000);
    const stuck = () => m.statuses().find((s) => s.name === "stuck");
    expect(stuck()).toMatchObject({
      state: "timeout",
      error: "start-up cancelled (the session was interrupted)",
    });
    expect(m.startupNotices().map((n) => n.text)).toContainEqual(
      expect.stringMatching(/^MCP server stuck not started: start-up cancelled/),
    );
    await expect.poll(() => stuck()?.stderrTail, { timeout: 15_000 }).toMatch(/pid \d+/);
    const pid = Number(/pid (\d+)/.exec(stuck()?.stderrTail ?? "")?.[1]);
    const alive = () => isAlive(pid);
    expect(alive()).toBe(true);
    await m.close();
    // The SDK's own shutdown of a server would close its stdin and wait 2 s before SIGTERM:
    // one that never finished the handshake is sent SIGTERM at once.
    await expect.poll(alive, { timeout: 1000, interval: 20 }).toBe(false);
  });

  it("close ends what a wrapper started too: `sh -c` whose real server never answers", async () => {
    // The SDK signals only the process it spawned (sh); the sleep held the pipes open and
    // `keel run` did not exit until it died.
    const { m } = await start({
      servers: [
        {
          name: "wrapped",
          file: "test",
          scope: "user",
          config: {
            type: "stdio",
            command: "sh",
            args: ["-c", 'sleep 300 & echo "child $!" >&2; wait'],
            env: {},
          },
        },
      ],
      startupTimeoutMs: 200,
    });
    const wrapped = () => m.statuses().find((s) => s.name === "wrapped");
    expect(wrapped()).toMatchObject({ state: "timeout" });
    await expect.poll(() => wrapped()?.stderrTail, { timeout: 5_000 }).toMatch(/child \d+/);
    const child = Number(/child (\d+)/.exec(wrapped()?.stderrTail ?? "")?.[1]);
    const alive = () => isAlive(child);
    expect(alive()).toBe(true);
    const began = Date.now();
    await m.close();
    expect(Date.now() - began).toBeLessThan(10_000);
    await expect.poll(alive, { timeout: 5000, interval: 20 }).toBe(false);
  });

  it("a server and a child it left that ignore SIGTERM are killed after a grace period", async () => {
    // attack6/37: `trap '' TERM` makes sh and its sleep deaf to SIGTERM; the SDK then forgets
    // the process, the sleep holds the pipes and `keel run` never exited.
    const { m } = await start({
      servers: [
        {
          name: "deaf",
          file: "test",
          scope: "user",
          config: {
            type: "stdio",
            command: "sh",
            args: ["-c", `trap '' TERM; sleep 300 & echo "child $!" >&2; wait; wait`],
            env: {},
          },
        },
      ],
      startupTimeoutMs: 200,
    });
    const deaf = () => m.statuses().find((s) => s.name === "deaf");
    await expect.poll(() => deaf()?.stderrTail, { timeout: 5_000 }).toMatch(/child \d+/);
    const child = Number(/child (\d+)/.exec(deaf()?.stderrTail ?? "")?.[1]);
    expect(isAlive(child)).toBe(true);
    await m.close();
    await expect.poll(() => isAlive(child), { timeout: 10_000, interval: 50 }).toBe(false);
  });

  it("a server that writes past the line bound without a newline is cut off and ended", async () => {
    // attack6/38: the SDK copies its whole buffer on every chunk until a newline, so a flood
    // kept Keel's event loop busy for minutes. 40 MB > the 16 MB bound.
    const { m } = await start({
      servers: [
        {
          name: "flood",
          file: "test",
          scope: "user",
          config: {
            type: "stdio",
            command: "sh",
            args: ["-c", `echo "child $$" >&2; head -c 40000000 /dev/zero | tr '\\0' a; sleep 300`],
            env: {},
          },
        },
      ],
      startupTimeoutMs: 200,
    });
    const flood = () => m.statuses().find((s) => s.name === "flood");
    await expect
      .poll(() => flood()?.stderrTail ?? "", { timeout: 30_000, interval: 100 })
      .toMatch(/stopped reading the server: it wrote more than 16 MB without a newline/);
    const server = Number(/child (\d+)/.exec(flood()?.stderrTail ?? "")?.[1]);
    await expect.poll(() => isAlive(server), { timeout: 10_000, interval: 50 }).toBe(false);
  });

  it("a server ready after the wait is announced; reload adds its tools", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keel-mcp-gate-"));
    const gate = join(dir, "open");
    const { m, notices } = await start({
      servers: [stdioEntry("late", FAULT_SERVER, ["gate", gate])],
      startupTimeoutMs: 200,
    });
    expect(m.statuses()[0]).toMatchObject({ state: "timeout" });
    expect(m.tools()).toEqual([]);
    writeFileSync(gate, "");
    await expect
      .poll(() => notices.join("\n"), { timeout: 15_000 })
      .toMatch(/MCP server late is ready \(after the start-up wait\)/);
    expect(m.statuses()[0]).toMatchObject({ state: "connected", pendingReload: true });
    expect(m.tools()).toEqual([]);
    expect((await m.reload()).map((t) => t.name)).toEqual([
      "mcp__late__echo",
      "mcp__late__write_note",
    ]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a crash in the middle of a call is an error result, and the server is marked closed", async () => {
    const { m, notices } = await start({ servers: [faultEntry("fragile", "crash-call")] });
    const boom = m.tools()[0];
    const r = await boom?.run({}, { signal: signal() });
    expect(r?.isError).toBe(true);
    expect(r?.content).toMatch(/MCP server fragile failed to run boom/);
    await expect.poll(() => m.statuses()[0]?.state).toBe("closed");
    expect(notices.join("\n")).toMatch(/MCP server fragile exited[\s\S]*dying mid-call/);
  });

  it("a huge result is capped like the shell tool's output", async () => {
    const { m } = await start({ servers: [faultEntry("big", "huge")] });
    const r = await m.tools()[0]?.run({}, { signal: signal() });
    expect(r?.content.length).toBeLessThan(31_000);
    expect(r?.content).toMatch(/\[output truncated: \d+ bytes omitted\]/);
  });

  it("a tool with a malformed schema is skipped and reported; the server's other tools remain", async () => {
    const { m } = await start({ servers: [faultEntry("odd", "malformed")] });
    expect(m.tools().map((t) => t.name)).toEqual(["mcp__odd__good"]);
    expect(m.statuses()[0]?.problems.join()).toMatch(/tool bad skipped: inputSchema.type/);
  });

  it("tools/list_changed is announced and applied only by reload", async () => {
    const { m, notices } = await start({ servers: [faultEntry("dyn", "list-changed")] });
    const listed = ["mcp__dyn__grow", "mcp__dyn__shrink"];
    expect(m.tools().map((t) => t.name)).toEqual(listed);
    await m.tools()[0]?.run({}, { signal: signal() });
    await expect.poll(() => notices.join("\n")).toMatch(/MCP server dyn changed its tools/);
    expect(m.tools().map((t) => t.name)).toEqual(listed);
    expect(m.statuses()[0]?.pendingReload).toBe(true);
    const after = await m.reload();
    expect(after.map((t) => t.name)).toEqual([
      "mcp__dyn__grow",
      "mcp__dyn__grown",
      "mcp__dyn__shrink",
    ]);
  });

  it("text, image, audio, resources and isError", async () => {
    const { m } = await start({ servers: [faultEntry("mix", "mixed")] });
    const mixed = m.tools().find((t) => t.name === "mcp__mix__mixed");
    const r = await mixed?.run({}, { signal: signal() });
    expect(r?.content).toBe(
      "hello\n[image: image/png, 300 bytes]\n[audio: audio/wav, 30 bytes]\n[resource: file:///a.txt, text/plain, 4 bytes]\n[resource link: file:///b.txt (b)]",
    );
    const fail = await m
      .tools()
      .find((t) => t.name === "mcp__mix__fail")
      ?.run({}, { signal: signal() });
    expect(fail).toMatchObject({ content: "it broke", isError: true });
  });

  it("a missing ${VAR} fails the server by naming the variable; no process is started", async () => {
    const entry = faultEntry("needs", "ok");
    if (entry.config.type === "stdio") entry.config.env = { TOKEN: "${KEEL_TEST_UNSET_VAR}" };
    const { m } = await start({ servers: [entry], env: {} } as never);
    expect(m.statuses()[0]).toMatchObject({
      state: "failed",
      error: "missing environment variable KEEL_TEST_UNSET_VAR",
    });
  });
});
