import { EventEmitter } from "node:events";
import { render as inkRender } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { App, type OpenedBackend } from "../../../src/cli/tui/app.js";
import { createPermissionBridge } from "../../../src/cli/tui/permission-bridge.js";
import { type FakeOptions, fakeBackend, hookDef } from "./fake-backend.js";
import { KEY, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

/** A session that opens when the test says so (as the real one does after the first frame). */
function opening(opts: FakeOptions = {}) {
  const { backend, log } = fakeBackend(opts);
  let open: (o: OpenedBackend) => void = () => {};
  let fail: (err: Error) => void = () => {};
  const ready = new Promise<OpenedBackend>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  const pending = { projectDir: "/proj", model: "deepseek-v4-flash", mode: "default" as const };
  return { backend, log, ready, pending, open: () => open({ backend }), fail };
}

function mount(o: ReturnType<typeof opening>) {
  const r = render(
    <App backend={{ ...o.pending, ready: o.ready }} permissions={createPermissionBridge()} />,
  );
  const screen = (check: (s: string) => boolean) => waitForFrame(r.lastFrame, check);
  return { ...r, screen, type: (text: string) => r.stdin.write(text) };
}

/** An opening session that reports the MCP servers it waits for when the test `tell`s. */
function mountWaiting() {
  const o = opening();
  let listener: (names: readonly string[]) => void = () => {};
  const cancelled = { count: 0 };
  const r = render(
    <App
      backend={{
        ...o.pending,
        ready: o.ready,
        waiting: (l) => {
          listener = l;
          l([]);
          return () => {};
        },
        cancel: () => {
          cancelled.count++;
        },
      }}
      permissions={createPermissionBridge()}
    />,
  );
  return { o, r, cancelled, tell: (names: readonly string[]) => listener(names) };
}

describe("App while the session opens", () => {
  it("shows the prompt and status at once and keeps what is typed", async () => {
    const o = opening();
    const m = mount(o);
    const s = await m.screen((s) => s.includes("ask Keel, or /help"));
    expect(s).toContain("deepseek-v4-flash · default · cache turn – session –");
    m.type("hel");
    m.type("lo");
    await m.screen((s) => s.includes("hello"));
    expect(o.log.calls).toEqual([]);
    o.open();
    await expect.poll(() => o.log.calls).toEqual(["start:session-0"]);
    m.type(" world\r");
    await m.screen((s) => s.includes("echo: hello world"));
  });

  it("a prompt sent before the session is open runs after SessionStart", async () => {
    const o = opening();
    const m = mount(o);
    await m.screen((s) => s.includes("ask Keel, or /help"));
    m.type("first\r");
    await m.screen((s) => s.includes("queued: first"));
    expect(o.log.calls).toEqual([]);
    o.open();
    await m.screen((s) => s.includes("echo: first"));
    expect(o.log.calls).toEqual(["start:session-0", "turn:first"]);
  });

  it("names the MCP servers the opening waits for, and quitting then cancels the opening", async () => {
    const { o, r, tell, cancelled } = mountWaiting();
    const screen = (check: (s: string) => boolean) => waitForFrame(r.lastFrame, check);
    await screen((s) => s.includes("ask Keel, or /help"));
    expect(r.lastFrame()).not.toContain("starting MCP");
    tell(["github", "slow"]);
    await screen(
      (s) => s.includes("starting MCP servers github, slow") && s.includes("ctrl+d quits"),
    );
    tell(["slow"]);
    await screen((s) => s.includes("starting MCP server slow…"));
    r.stdin.write("\x04");
    await expect.poll(() => cancelled.count).toBe(1);
    o.open();
  });

  it("the waiting line goes once the session is open", async () => {
    const { o, r, tell } = mountWaiting();
    await waitForFrame(r.lastFrame, (s) => s.includes("ask Keel, or /help"));
    tell(["slow"]);
    await waitForFrame(r.lastFrame, (s) => s.includes("starting MCP server slow"));
    tell([]);
    o.open();
    await expect.poll(() => o.log.calls).toEqual(["start:session-0"]);
    await waitForFrame(r.lastFrame, (s) => !s.includes("starting MCP"));
  });

  it("asks for trust once open, before SessionStart and before a queued prompt", async () => {
    const o = opening({
      hooks: [hookDef({ event: "SessionStart", handler: { type: "command", command: "./a.sh" } })],
      trusted: false,
    });
    const m = mount(o);
    await m.screen((s) => s.includes("ask Keel, or /help"));
    m.type("go\r");
    await m.screen((s) => s.includes("queued: go"));
    o.open();
    // Keys typed as the question appears do not answer it (the arm delay).
    m.type("y");
    await m.screen((s) => s.includes("Trust these hooks") && s.includes("enter confirm"));
    expect(o.log.trusted).toBe(0);
    expect(o.log.calls).toEqual([]);
    m.type("n");
    await expect.poll(() => o.log.calls).toEqual(["start:session-0", "turn:go"]);
    expect(o.log.trusted).toBe(0);
  });

  it("Shift+Tab before the session is open sets the mode the agent starts in", async () => {
    const o = opening();
    const m = mount(o);
    await m.screen((s) => s.includes("ask Keel, or /help"));
    m.type("\x1b[Z");
    await m.screen((s) => s.includes("· acceptEdits ·"));
    o.open();
    await expect.poll(() => o.log.calls).toEqual(["start:session-0"]);
    expect(o.backend.agent().getPermissionMode()).toBe("acceptEdits");
  });

  it("double Ctrl+C before the session is open ends it once it is", async () => {
    const o = opening();
    const m = mount(o);
    await m.screen((s) => s.includes("ask Keel, or /help"));
    m.type(KEY.ctrlC);
    await m.screen((s) => s.includes("Press Ctrl+C again to exit"));
    m.type(KEY.ctrlC);
    o.open();
    await expect.poll(() => o.log.ended).toEqual(["session-0:exit"]);
    expect(o.log.calls).toEqual([]);
  });

  it("a session that cannot be opened ends the UI with its error", async () => {
    const o = opening();
    const instance = inkRender(
      <App backend={{ ...o.pending, ready: o.ready }} permissions={createPermissionBridge()} />,
      { ...fakeTerminal(), debug: true, exitOnCtrlC: false, patchConsole: false },
    );
    o.fail(new Error("cannot create the session file"));
    await expect(instance.waitUntilExit()).rejects.toThrow("cannot create the session file");
  });
});

/** Streams Ink accepts as a terminal, for a test that needs Ink's own instance. */
function fakeTerminal() {
  const stdout = Object.assign(new EventEmitter(), {
    columns: 100,
    write: (_data: string, done?: () => void) => {
      done?.();
      return true;
    },
  });
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    read: () => null,
    setEncoding() {},
    setRawMode() {},
    resume() {},
    pause() {},
    ref() {},
    unref() {},
  });
  return {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
  };
}
