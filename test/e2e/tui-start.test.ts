/**
 * End to end: typing into `keel` the moment it starts. The prompt is drawn before the session
 * has opened (agent, hooks engine, MCP load after the first frame); keys typed before that frame
 * or while the session opens must reach the prompt once, in order, without the terminal echoing
 * them over the screen, and a prompt sent that early must run once the session is open. (Keys
 * typed before the process runs at all are echoed by the terminal, as for any program: the
 * test starts typing when Keel has taken the terminal.)
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ARM_DELAY_MS } from "../../src/cli/tui/use-armed.js";
import { DEFAULT_MCP_STARTUP_MS } from "../../src/mcp/manager.js";
import { reply, script } from "../../src/sim/builder.js";
import { type Simulator, startSimulator } from "../../src/sim/server.js";
import { FAULT_SERVER } from "../mcp/servers.js";
import { writeStartProbe } from "./start-probe.js";
import { e2eLifecycle, hasTmux, TmuxTerminal } from "./tui-harness.js";

const TMUX = hasTmux();
if (!TMUX) console.warn("test/e2e/tui-start.test.ts: tmux is not installed; skipping");

const e2e = e2eLifecycle({ skip: !TMUX });

async function start(
  opts: {
    hooks?: boolean;
    sim?: ReturnType<typeof script>;
    mcp?: Record<string, unknown>;
    /** Options for node before bin/keel.js. */
    node?: string[];
  } = {},
) {
  const dir = await mkdtemp(join(tmpdir(), "keel-tui-start-"));
  e2e.dirs.push(dir);
  const keelHome = join(dir, "keel-home");
  const project = join(dir, "project");
  await mkdir(join(dir, "home"));
  await mkdir(keelHome);
  await mkdir(join(project, ".keel"), { recursive: true });
  const sim = await startSimulator({
    script: opts.sim ?? script(reply().text("the answer").repeat(5)),
  });
  e2e.sims.push(sim);
  const config = join(keelHome, "config.json");
  await writeFile(config, JSON.stringify({ apiKey: "sk-e2e-0000", baseUrl: sim.url }));
  await chmod(config, 0o600);
  if (opts.mcp) {
    await writeFile(join(keelHome, "settings.json"), JSON.stringify({ mcpServers: opts.mcp }));
  }
  if (opts.hooks) {
    await writeFile(
      join(project, ".keel/settings.json"),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo ran >> hook.log" }] }],
        },
      }),
    );
  }
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    KEEL_HOME: keelHome,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
  };
  const term = new TmuxTerminal({
    cwd: project,
    env,
    argv: [process.execPath, ...(opts.node ?? []), e2e.bin],
  });
  e2e.terminals.push(term);
  return { term, sim, project, dir };
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The text of the last user message the model received. */
function lastUserText(sim: Simulator): string | undefined {
  const messages = sim.requests.at(-1)?.messages ?? [];
  const user = messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : undefined;
}

describe.skipIf(!TMUX)("typing as keel starts", () => {
  it("keys typed before the first frame reach the prompt once, unechoed, and the prompt runs", async () => {
    const typed = "list the files in src please";
    // Typed a word at a time: the first word before anything is drawn, the rest while the
    // session opens. The probe holds the first frame back until the first word is waiting in
    // the terminal (its input queue, read by nobody yet), whatever the machine's load; the
    // frame then draws and Keel reads the word as it would any key typed during its start.
    const words = typed.split(" ");
    const dir = await mkdtemp(join(tmpdir(), "keel-tui-hold-"));
    e2e.dirs.push(dir);
    const release = join(dir, "release-frame");
    const { probe, lines } = writeStartProbe(dir, { holdFrame: release });
    const started = await start({ node: ["--import", probe] });
    await until(() => lines().includes("HELD"), "keel to hold its first frame");
    expect(started.term.rawMode(), "keel has taken the terminal before its first frame").toBe(true);
    const first = words[0] ?? "";
    started.term.type(first);
    await until(() => started.term.pendingInput() >= first.length, "the first word to be queued");
    const beforeFrame = started.term.screen();
    await writeFile(release, "");
    const { term, sim } = started;
    for (const w of words.slice(1)) term.type(` ${w}`);
    term.press("Enter");
    expect(beforeFrame, "the first key was typed before the first frame").not.toContain("ask Keel");
    await term.waitFor((t) => t.includes("the answer"), { what: "the answer" });
    expect(lastUserText(sim)).toBe(typed);
    // Once: in the transcript, not also echoed by the terminal above the first frame.
    const all = await term.waitFor((t) => t.includes("ask Keel, or /help"), { history: true });
    expect(all.split(typed).length - 1, all).toBe(1);
  }, 180_000);

  it("the first frame comes before zod and the session's modules load, and before any V8 flag is set", async () => {
    // The probe logs modules loaded, V8 flags set and the first frame, in order.
    const dir = await mkdtemp(join(tmpdir(), "keel-tui-probe-"));
    e2e.dirs.push(dir);
    const { probe, lines } = writeStartProbe(dir);
    const { term } = await start({ node: ["--import", probe] });
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    // The session opens after the first frame; the flag is set once it has (and Markdown loaded).
    await until(() => lines().some((l) => l.startsWith("FLAGS ")), "the V8 flag", 20_000);
    const seen = lines();
    const frame = seen.indexOf("FRAME");
    const zod = seen.findIndex((l) => l.endsWith("/vendor-zod.cjs"));
    const flags = seen.findIndex((l) => l.startsWith("FLAGS "));
    expect(frame, seen.join("\n")).toBeGreaterThan(0);
    const beforeFrame = seen.slice(0, frame);
    // `keel` alone parses no option: commander is not loaded (src/cli/main.ts).
    expect(beforeFrame.filter((l) => /\/commander-\w+\.mjs$/.test(l))).toEqual([]);
    // zod (10 ms to load) is the session's: its schemas are not needed to draw the prompt.
    expect(zod, seen.join("\n")).toBeGreaterThan(frame);
    // A flag set at run time makes V8 refuse the code cache of every module loaded after it.
    expect(flags, seen.join("\n")).toBeGreaterThan(frame);
    expect(seen[flags]).toBe("FLAGS --semi-space-growth-factor=1");
  }, 180_000);

  it("with untrusted project hooks, a prompt sent at start waits for the trust answer", async () => {
    const { term, sim, project } = await start({ hooks: true });
    await until(() => term.rawMode(), "keel to take the terminal");
    term.type("hello there");
    term.press("Enter");
    await term.waitFor((t) => t.includes("Trust these hooks") && t.includes("enter confirm"), {
      what: "the trust question",
    });
    expect(sim.requests.length).toBe(0);
    term.press("n");
    await term.waitFor((t) => t.includes("the answer"), { what: "the answer" });
    expect(lastUserText(sim)).toBe("hello there");
    expect(existsSync(join(project, "hook.log"))).toBe(false);
  }, 180_000);

  it("quitting while an MCP server is still starting exits at once and stops the server", async () => {
    // A user server that never answers the handshake: the session would wait 15 s for it.
    const marker = `keel-e2e-hang-${process.pid}-${Date.now()}`;
    const launched = Date.now();
    const { term } = await start({
      mcp: { stuck: { command: process.execPath, args: [FAULT_SERVER, "hang", marker] } },
    });
    const running = () => spawnSync("pgrep", ["-f", marker]).status === 0;
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    await until(running, "the MCP server to start");
    term.press("C-d");
    await term.waitFor((t) => t.includes("KEEL_EXITED 0"), { what: "keel to exit" });
    // Keel did not wait for the handshake: had it, it could not have exited before the wait's
    // end, DEFAULT_MCP_STARTUP_MS after it started — a bound that holds however slow the
    // machine is (a fixed few seconds did not, under load).
    expect(Date.now() - launched).toBeLessThan(DEFAULT_MCP_STARTUP_MS);
    // The server is stopped, not left behind (it never exits by itself).
    await until(() => !running(), "the MCP server to be stopped");
  }, 180_000);

  it("a prompt typed as a permission question appears is queued, not dropped", async () => {
    const sim = script()
      .tool("write_file", { path: "note.txt", content: "hi\n" })
      .text("wrote it")
      .text("the second answer");
    // The question arms (takes keys) when the test says: the prompt below is typed while it
    // shows and is not armed yet, however slowly a loaded machine delivers the keys.
    const dir = await mkdtemp(join(tmpdir(), "keel-tui-ask-"));
    e2e.dirs.push(dir);
    const release = join(dir, "arm");
    const { probe, lines } = writeStartProbe(dir, {
      holdTimers: { ms: ARM_DELAY_MS, release },
    });
    const { term, sim: server, project } = await start({ sim, node: ["--import", probe] });
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    term.type("write a note");
    term.press("Enter");
    await term.waitFor(
      (t) => t.includes("Allow write_file?") && t.includes("(keys typed now are ignored)"),
      { what: "the question, not armed yet" },
    );
    expect(lines()).toContain(`TIMER ${ARM_DELAY_MS}`);
    // Typed the moment the question shows; "a" and Enter would answer it once armed.
    const typed = "and then this";
    term.type(typed);
    term.press("Enter");
    await term.waitFor((t) => t.includes(`queued: ${typed}`), { what: "the queued prompt" });
    await writeFile(release, "");
    await term.waitFor((t) => t.includes("enter confirm"), { what: "the armed question" });
    expect(existsSync(join(project, "note.txt")), "the question was not answered").toBe(false);
    term.type("y");
    await term.waitFor((t) => t.includes("the second answer"), {
      what: "the queued prompt's answer",
    });
    expect(lastUserText(server)).toBe(typed);
  }, 180_000);
});
