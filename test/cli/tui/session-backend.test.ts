/** The TUI's session backend: /clear, /resume and /model hand the session to a new agent. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runSlashCommand, type SlashIO } from "../../../src/cli/tui/commands.js";
import { createPermissionBridge } from "../../../src/cli/tui/permission-bridge.js";
import { reply, script } from "../../../src/sim/index.js";
import {
  collect,
  commandHook,
  hookScript,
  worldPerTest,
  writeSettings,
} from "../../agent/harness.js";
import { backendFor } from "./session-world.js";

const start = worldPerTest();

it("fires SessionStart with source clear for the session /clear begins, resume for /model", async () => {
  const w = await start(script(reply().text("first"), reply().text("second")));
  const log = join(w.root, "sources.log");
  writeFileSync(log, "");
  writeSettings(w, {
    SessionStart: [commandHook(hookScript(w, "source.sh", `jq -r .source >> "${log}"`))],
  });
  const { backend, close } = await backendFor(w);
  try {
    await collect(backend.agent().runTurn("hello"));
    const before = backend.agent().sessionId;
    await collect(backend.agent().end("clear"));
    expect(await backend.replace({})).toEqual({ ok: true });
    expect(backend.agent().sessionId).not.toBe(before);
    await collect(backend.agent().runTurn("again"));
    await collect(backend.agent().end("exit"));
    expect(await backend.replace({ model: "deepseek-v4-pro" })).toEqual({ ok: true });
    await collect(backend.agent().start());
    await collect(backend.agent().end("exit"));
  } finally {
    close();
  }
  expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["startup", "clear", "resume"]);
});

it("labels 'allow always' with what the agent then allows: every write_file, one exact command", async () => {
  const w = await start(
    script(
      reply().tool("write_file", { path: "a.txt", content: "a\n" }),
      reply().tool("write_file", { path: "b.txt", content: "b\n" }),
      reply().tool("shell", { command: "touch c.txt" }),
      reply().tool("shell", { command: "touch d.txt" }),
      reply().text("done"),
    ),
  );
  const permissions = createPermissionBridge();
  const asked: { summary: string; always: string | null }[] = [];
  permissions.subscribe((p) => {
    if (!p) return;
    asked.push({ summary: p.request.summary, always: p.request.always });
    p.answer(p.request.toolName === "shell" && asked.length > 2 ? "allow_once" : "allow_always");
  });
  const { backend, close } = await backendFor(w, permissions);
  try {
    await collect(backend.agent().runTurn("write and touch"));
  } finally {
    close();
  }
  // b.txt was not asked about: "all write_file calls, on any file" is what the label said.
  expect(asked).toEqual([
    {
      summary: "write_file a.txt",
      always: "Allow all write_file calls for this session, on any file",
    },
    { summary: "shell touch c.txt", always: "Always allow `touch c.txt` for this session" },
    { summary: "shell touch d.txt", always: "Always allow `touch d.txt` for this session" },
  ]);
});

it("keeps the session's hook counts when /model hands it to a new agent (keel hooks stats agrees)", async () => {
  const w = await start(script(reply().text("one"), reply().text("two")));
  writeSettings(w, { UserPromptSubmit: [commandHook("true")] });
  const { backend, close } = await backendFor(w);
  const runs = () =>
    (backend.hookStats?.() ?? []).find((s) => s.event === "UserPromptSubmit")?.runs ?? 0;
  try {
    await collect(backend.agent().runTurn("first"));
    expect(runs()).toBe(1);
    expect(await backend.replace({ model: "deepseek-v4-pro" })).toEqual({ ok: true });
    expect(runs()).toBe(1);
    await collect(backend.agent().runTurn("second"));
    expect(runs()).toBe(2);
    // A new session (/clear) starts counting again.
    expect(await backend.replace({})).toEqual({ ok: true });
    expect(runs()).toBe(0);
  } finally {
    close();
  }
});

it("keeps 'allow always' answers for the session through /model and a /resume back; /clear starts afresh", async () => {
  const w = await start(
    script(
      reply().tool("write_file", { path: "a.txt", content: "a\n" }),
      reply().text("one"),
      reply().tool("write_file", { path: "b.txt", content: "b\n" }),
      reply().text("two"),
      reply().tool("write_file", { path: "c.txt", content: "c\n" }),
      reply().text("three"),
      reply().tool("write_file", { path: "d.txt", content: "d\n" }),
      reply().text("four"),
    ),
  );
  const permissions = createPermissionBridge();
  const asked: string[] = [];
  permissions.subscribe((p) => {
    if (!p) return;
    asked.push(p.request.summary);
    p.answer("allow_always");
  });
  const { backend, close } = await backendFor(w, permissions);
  try {
    await collect(backend.agent().runTurn("write a"));
    const first = backend.agent().sessionId;
    // /model: the same session under another model; the answer still holds.
    await collect(backend.agent().end("exit"));
    expect(await backend.replace({ model: "deepseek-v4-pro" })).toEqual({ ok: true });
    await collect(backend.agent().runTurn("write b"));
    // /clear: a new session asks again.
    await collect(backend.agent().end("clear"));
    expect(await backend.replace({})).toEqual({ ok: true });
    await collect(backend.agent().runTurn("write c"));
    // /resume back to the first session: its answer holds again.
    await collect(backend.agent().end("exit"));
    expect(await backend.replace({ resume: first })).toEqual({ ok: true });
    await collect(backend.agent().runTurn("write d"));
  } finally {
    close();
  }
  expect(asked).toEqual(["write_file a.txt", "write_file c.txt"]);
});

it("/jobs lists the session's background jobs and /jobs kill ends one", async () => {
  const w = await start(
    script(
      reply().tool("shell", { command: "echo started; sleep 30", run_in_background: true }),
      reply().text("running"),
    ),
  );
  const permissions = createPermissionBridge();
  permissions.subscribe((p) => p?.answer("allow_once"));
  const { backend, close } = await backendFor(w, permissions);
  const printed: string[] = [];
  const notices: string[] = [];
  const io = {
    print: (b: { lines: string[] }) => printed.push(...b.lines),
    notice: (_level: string, text: string) => notices.push(text),
  } as unknown as SlashIO;
  try {
    await runSlashCommand({ name: "jobs", args: [] }, { backend, io });
    expect(printed).toEqual(["none in this session"]);
    await collect(backend.agent().runTurn("start a job"));
    const [job] = backend.jobs?.() ?? [];
    expect(job?.status).toEqual({ state: "running" });
    printed.length = 0;
    await runSlashCommand({ name: "jobs", args: [] }, { backend, io });
    expect(printed.join("\n")).toMatch(
      new RegExp(`${job?.id}\\s+running\\s+.*echo started; sleep 30`),
    );
    await runSlashCommand({ name: "jobs", args: ["kill", job?.id ?? ""] }, { backend, io });
    expect(notices).toEqual([`job ${job?.id}: killed`]);
    await runSlashCommand({ name: "jobs", args: ["kill", "nope"] }, { backend, io });
    expect(notices[1]).toBe("no background job nope: see /jobs");
    await collect(backend.agent().end("exit"));
  } finally {
    close();
  }
});
