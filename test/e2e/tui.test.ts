/**
 * End to end: the real `keel` binary in tmux against the simulator — trust prompt, a streamed
 * answer, a permission prompt, a hook blocking a call, /hooks and /stats, Ctrl+C interrupting a
 * long tool, exit with SessionEnd; first-run setup; --help/--version without Ink.
 */
import { spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatCost, formatRatio } from "../../src/cli/tui/format.js";
import { costUsd } from "../../src/llm/pricing.js";
import { reply, script } from "../../src/sim/builder.js";
import type { SimRequestRecord } from "../../src/sim/record.js";
import { startSimulator } from "../../src/sim/server.js";
import { e2eLifecycle, hasTmux, TmuxTerminal } from "./tui-harness.js";

const TMUX = hasTmux();
if (!TMUX) console.warn("test/e2e/tui.test.ts: tmux is not installed; skipping the terminal tests");

// A duration nothing else on the machine uses, so the test can look for the process.
const SLEEP = "sleep 73.25";

const e2e = e2eLifecycle();

async function setup(opts: { config: boolean }) {
  const { home, keelHome, project } = e2e.world("keel-tui-e2e-");
  await mkdir(join(project, ".keel"));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    KEEL_HOME: keelHome,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
  };
  return { home, keelHome, project, env, config: opts.config };
}

async function writeConfig(keelHome: string, baseUrl: string) {
  const path = join(keelHome, "config.json");
  await writeFile(path, JSON.stringify({ apiKey: "sk-e2e-0000", baseUrl }));
  await chmod(path, 0o600);
}

function processRunning(pattern: string): boolean {
  const r = spawnSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return r.stdout.split("\n").some((line) => line.trim() === pattern);
}

/** The cache hit ratio of simulator records, as the status line prints it. */
function simRatio(records: readonly SimRequestRecord[]): string {
  const hit = records.reduce((n, r) => n + r.hitTokens, 0);
  const miss = records.reduce((n, r) => n + r.missTokens, 0);
  return formatRatio(hit / (hit + miss));
}

/** What the records cost at the pricing table's rates, as the status line prints it. */
function simCost(records: readonly SimRequestRecord[]): string {
  const usd = records.reduce(
    (sum, r) =>
      sum +
      costUsd(r.model ?? "deepseek-v4-flash", {
        promptTokens: r.promptTokens,
        cacheHitTokens: r.hitTokens,
        cacheMissTokens: r.missTokens,
        completionTokens: r.completionTokens,
        reasoningTokens: r.reasoningTokens,
      }),
    0,
  );
  return formatCost(usd);
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!TMUX)("keel in a terminal (tmux)", () => {
  it("runs a session: trust, permission, hook block, /hooks, /stats, Ctrl+C, exit", async () => {
    const s = await setup({ config: true });
    const sim = await startSimulator({
      script: script()
        .reply(
          reply()
            .reasoning("The user wants a note; write_file will do.")
            .text("Writing the note now.")
            .tool("write_file", { path: "note.txt", content: "hello from keel\n" }),
        )
        .text("Wrote note.txt.")
        .reply(reply().tool("shell", { command: "git push --force origin main" }))
        .text("The hook refused the force push.")
        .reply(
          reply().tool("shell", {
            command: "printf '\\033[2J\\033[H\\033[31mtool-start\\rtool-colour\\033[0m\\n'",
          }),
        )
        .text("Printed.")
        .reply(reply().tool("shell", { command: SLEEP }))
        .text("unreachable")
        .chunkChars(6),
    });
    e2e.sims.push(sim);
    await writeConfig(s.keelHome, sim.url);
    await writeFile(
      join(s.project, ".keel", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "shell",
              hooks: [
                {
                  type: "command",
                  command:
                    'case "$tool_input_command" in *--force*) echo "force pushes are not allowed here" >&2; exit 2;; esac',
                },
              ],
            },
          ],
          PostToolUse: [
            {
              matcher: "shell",
              hooks: [
                {
                  type: "command",
                  command:
                    "printf '\\033[2J\\033[H\\033]0;pwned\\007\\033[31mhook-start\\rhook-colour\\033[0m\\n'",
                },
              ],
            },
          ],
          SessionEnd: [
            { hooks: [{ type: "command", command: 'cat > "$KEEL_PROJECT_DIR/session-end.json"' }] },
          ],
        },
      }),
    );
    const term = new TmuxTerminal({
      cwd: s.project,
      env: s.env,
      argv: [process.execPath, e2e.bin],
    });
    e2e.terminals.push(term);

    // Untrusted project hooks: the prompt shows what would run.
    let screen = await term.waitFor(
      (t) => t.includes("Trust these hooks") && t.includes("enter confirm"),
      {
        what: "the trust prompt",
      },
    );
    expect(screen).toContain("This project defines hooks");
    expect(screen).toContain("tool_input_command");
    term.type("y");
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });

    // A streamed answer, a tool card and a permission prompt.
    term.type("write a note");
    term.press("Enter");
    screen = await term.waitFor(
      (t) =>
        t.includes("Allow all write_file calls for this session, on any file") &&
        t.includes("enter confirm"),
      {
        what: "the permission prompt",
      },
    );
    expect(screen).toContain("Allow write_file?");
    expect(screen).toContain("Writing the note now.");
    term.type("y");
    screen = await term.waitFor((t) => t.includes("Wrote note.txt.") && t.includes("ask Keel"), {
      what: "the end of turn 1",
    });
    expect(screen).toMatch(/write_file note\.txt ✓ ok/);
    expect(screen).toMatch(/thought \d+ chars/);
    expect(await readFile(join(s.project, "note.txt"), "utf8")).toBe("hello from keel\n");

    // A hook blocks a call; its reason is on screen.
    const turn1Requests = sim.requests.length;
    term.type("force push");
    term.press("Enter");
    screen = await term.waitFor(
      (t) => t.includes("The hook refused the force push.") && t.includes("ask Keel"),
      { what: "the blocked call" },
    );
    expect(screen).toContain("reason: force pushes are not allowed here");
    expect(screen).toMatch(/hook PreToolUse .* blocked/);
    expect(screen).toMatch(/shell git push --force origin main ⊘ blocked/);
    // The status line shows what the simulator counted: this turn's and the session's cache hit
    // ratio, and the session's cost at the pricing table's rates.
    const answered = sim.requests.filter((r) => r.status === 200);
    expect(answered.length).toBeGreaterThan(turn1Requests);
    expect(screen).toContain(
      `deepseek-v4-flash · default · cache turn ${simRatio(answered.slice(turn1Requests))} ` +
        `session ${simRatio(answered)} · ${simCost(answered)}`,
    );

    // A tool and a hook print escape sequences (clear screen, colours, a title): shown as text only.
    term.type("show colours");
    term.press("Enter");
    screen = await term.waitFor((t) => t.includes("Printed."), { what: "the colour turn" });
    expect(screen).toContain("❯ show colours");
    expect(screen).toMatch(/⎿ tool-colour$/m);
    expect(screen).toMatch(/hook PostToolUse .* ok/);
    // The PostToolUse row belongs to the call's card: below its header, not above it.
    const rows = screen.split("\n");
    const cardRow = rows.findIndex((l) => l.includes("⏺ shell printf"));
    expect(cardRow).toBeGreaterThanOrEqual(0);
    expect(rows.findIndex((l) => /hook PostToolUse/.test(l))).toBeGreaterThan(cardRow);
    expect(screen).toMatch(/^ {4}hook-colour$/m);
    expect(term.title()).not.toContain("pwned");
    // Carriage returns resolve as in a terminal: only the final text of the line shows.
    expect(screen).not.toMatch(/^\s*(⎿ )?(tool|hook)-start/m);

    // Slash commands.
    term.type("/hooks");
    term.press("Enter");
    screen = await term.waitFor((t) => t.includes("3 hooks from 1 file"), {
      what: "/hooks",
      history: true,
    });
    expect(screen).toMatch(
      /❯ \/hooks\n[\s\S]*PostToolUse +\(observing[\s\S]*3 hooks from 1 file; 0 errors/,
    );
    term.type("/stats");
    term.press("Enter");
    screen = await term.waitFor(
      (t) => t.includes("Session stats") && t.includes("cache hit ratio"),
      {
        what: "/stats",
      },
    );
    expect(screen).toMatch(/requests\s+6/);

    // A long tool, approved, then interrupted with Ctrl+C: the process is killed.
    term.type("wait for it");
    term.press("Enter");
    await term.waitFor((t) => t.includes("Allow shell?") && t.includes("enter confirm"), {
      what: "the shell permission prompt",
    });
    term.type("y");
    await until(() => processRunning(SLEEP), "the sleep to start");
    await term.waitFor((t) => t.includes(`shell ${SLEEP} ◌ running`), { what: "the running card" });
    term.press("C-c");
    screen = await term.waitFor((t) => t.includes("interrupted") && t.includes("ask Keel"), {
      what: "the interrupt",
    });
    await until(() => !processRunning(SLEEP), "the sleep to be killed");

    // Resize; a key in between, so the next Ctrl+C is not "twice quickly" after the interrupt.
    term.resize(60, 20);
    term.type("x");
    await term.waitFor((t) => /❯ x/.test(t) && /cache \d+%\/\d+%/.test(t), {
      what: "the prompt after resize",
    });
    // Exit: Ctrl+C clears the prompt, then twice in a row quits; SessionEnd fires with reason exit.
    term.press("C-c");
    await term.waitFor((t) => t.includes("ask Keel"), { what: "the cleared prompt" });
    term.press("C-c");
    await term.waitFor((t) => t.includes("Press Ctrl+C again to exit"), { what: "the exit hint" });
    term.press("C-c");
    await term.waitFor((t) => t.includes("KEEL_EXITED 0"), { what: "keel to exit", history: true });
    const end = JSON.parse(await readFile(join(s.project, "session-end.json"), "utf8"));
    expect(end).toMatchObject({ hook_event_name: "SessionEnd", reason: "exit" });
  }, 180_000);

  // Narrowing reflows the frame Ink is about to erase; without a full redraw, half-erased
  // copies of the streaming line stay in the scrollback.
  it("streams a long answer while the terminal is resized: every line once, in order", async () => {
    const s = await setup({ config: true });
    const lines = Array.from(
      { length: 120 },
      (_, i) =>
        `Line ${String(i + 1).padStart(3, "0")}: the quick brown fox jumps over the lazy dog, and keeps going to make the line wrap at eighty columns.`,
    );
    const sim = await startSimulator({
      script: script(reply().text(lines.join("\n")).chunkChars(9).latency({ chunkDelayMs: 3 })),
    });
    e2e.sims.push(sim);
    await writeConfig(s.keelHome, sim.url);
    const term = new TmuxTerminal({
      cwd: s.project,
      env: s.env,
      argv: [process.execPath, e2e.bin],
    });
    e2e.terminals.push(term);
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    term.type("tell me a long story");
    term.press("Enter");
    await term.waitFor((t) => t.includes("Line 010"), { what: "streaming to start" });
    term.resize(100, 30);
    await term.waitFor((t) => t.includes("Line 030"), { what: "streaming at 100 columns" });
    term.resize(60, 20);
    await term.waitFor((t) => t.includes("Line 050"), { what: "streaming at 60 columns" });
    term.resize(100, 30);
    await term.waitFor((t) => t.includes("Line 070"), { what: "streaming at 100 columns" });
    term.resize(50, 20);
    await term.waitFor((t) => t.includes("Line 090"), { what: "streaming at 50 columns" });
    term.resize(80, 24);
    await term.waitFor((t) => t.includes("Line 120") && t.includes("ask Keel"), {
      what: "the end of the answer",
    });
    const history = term.all();
    const seen = [...history.matchAll(/Line (\d{3}):/g)].map((m) => Number(m[1]));
    expect(seen).toEqual(lines.map((_, i) => i + 1));
    expect(history.match(/❯ tell me a long story/g)).toHaveLength(1);
  }, 180_000);

  // Ink redraws a frame taller than the screen from the top each time, pushing its first rows into
  // the scrollback again on every redraw: the live part must stay small.
  it("streams a paragraph without line breaks: every word once in the scrollback", async () => {
    const s = await setup({ config: true });
    const words = Array.from({ length: 400 }, (_, i) => `word${String(i).padStart(4, "0")}`);
    const sim = await startSimulator({
      script: script(
        reply()
          .text(`${words.join(" ")}\nEND`)
          .chunkChars(6)
          .latency({ chunkDelayMs: 2 }),
      ),
    });
    e2e.sims.push(sim);
    await writeConfig(s.keelHome, sim.url);
    const term = new TmuxTerminal({
      cwd: s.project,
      env: s.env,
      argv: [process.execPath, e2e.bin],
    });
    e2e.terminals.push(term);
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    term.type("one long paragraph please");
    term.press("Enter");
    await term.waitFor((t) => /^\s*END$/m.test(t) && t.includes("ask Keel"), {
      what: "the end of the answer",
      timeoutMs: 40_000,
    });
    const seen = [...term.all().matchAll(/word(\d{4})/g)].map((m) => m[0]);
    expect(seen).toEqual(words);
  }, 180_000);

  it("--continue without an earlier conversation says it starts a new one", async () => {
    const s = await setup({ config: true });
    const sim = await startSimulator({ script: script().text("hi") });
    e2e.sims.push(sim);
    await writeConfig(s.keelHome, sim.url);
    const term = new TmuxTerminal({
      cwd: s.project,
      env: s.env,
      argv: [process.execPath, e2e.bin, "--continue"],
    });
    e2e.terminals.push(term);
    // The notice is drawn once the opened session is handed to the screen, a frame after the
    // prompt may first appear.
    const screen = await term.waitFor(
      (t) =>
        t.includes("ask Keel, or /help") &&
        t.includes("no earlier conversation in this project to continue"),
      { what: "the prompt and the notice" },
    );
    expect(screen).toContain("this is a new session");
  }, 180_000);

  it("first run without a key: setup saves config.json with mode 0600", async () => {
    const s = await setup({ config: false });
    const sim = await startSimulator({ script: script().text("hi") });
    e2e.sims.push(sim);
    const term = new TmuxTerminal({
      cwd: s.project,
      env: s.env,
      argv: [process.execPath, e2e.bin],
    });
    e2e.terminals.push(term);
    await term.waitFor((t) => t.includes("no API key is configured"), { what: "the setup form" });
    term.type("sk-first-run-key-1234");
    let screen = await term.waitFor((t) => t.includes("•••••"), { what: "the masked key" });
    expect(screen).not.toContain("first-run");
    term.press("Enter");
    await term.waitFor((t) => t.includes("Base URL:"), { what: "the base URL field" });
    term.press("C-u");
    term.type(sim.url);
    term.press("Enter");
    screen = await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    // Where the key went stays on screen, broken between words (not mid-word by the terminal).
    const said = `✓ saved your API key and base URL to ${join(s.keelHome, "config.json")} (readable only by you)`;
    expect(screen.replace(/\s+/g, " ")).toContain(said);
    const words = new Set(screen.split(/\s+/));
    for (const word of said.split(" ")) expect(words, `"${word}" whole on a line`).toContain(word);
    const path = join(s.keelHome, "config.json");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({
      apiKey: "sk-first-run-key-1234",
      baseUrl: sim.url,
    });
    term.type("/exit");
    term.press("Enter");
    await term.waitFor((t) => t.includes("KEEL_EXITED 0"), { what: "keel to exit", history: true });
  }, 180_000);
});

describe("keel --help and --version", () => {
  it("do not initialize Ink (its layout engine is the only WebAssembly Keel loads)", async () => {
    const work = await mkdtemp(join(tmpdir(), "keel-trace-"));
    try {
      // Ink's layout engine (yoga) instantiates a WebAssembly module when Ink's modules are
      // initialized. The bundle holds Ink's code either way; running it is what costs.
      const trace = join(work, "trace.mjs");
      const log = join(work, "wasm.txt");
      await writeFile(
        trace,
        `import { appendFileSync } from "node:fs";
for (const name of ["instantiate", "compile"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = function (...args) {
    appendFileSync(${JSON.stringify(log)}, name + "\\n");
    return original.apply(this, args);
  };
}
`,
      );
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, KEEL_HOME: work };
      const run = (args: string[]) =>
        spawnSync(process.execPath, ["--import", trace, e2e.bin, ...args], {
          encoding: "utf8",
          env,
          stdio: ["pipe", "pipe", "pipe"],
        });
      const traced = () => readFile(log, "utf8").catch(() => "");
      const version = run(["--version"]);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
      const help = run(["--help"]);
      expect(help.stdout).toContain("doctor");
      expect(await traced()).toBe("");
      // The tracer works: `keel` itself loads the UI (then stops: stdin is not a terminal).
      const tui = run([]);
      expect(tui.stderr).toContain("needs a terminal");
      expect(await traced()).not.toBe("");
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it("ships a bundle that bin/keel.js loads (not tsc's module tree)", async () => {
    const work = await mkdtemp(join(tmpdir(), "keel-trace-"));
    try {
      const trace = join(work, "trace.mjs");
      const log = join(work, "loaded.txt");
      await writeFile(
        trace,
        `import { registerHooks } from "node:module";
import { appendFileSync } from "node:fs";
registerHooks({ load(url, ctx, next) {
  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, ctx);
} });
`,
      );
      // (`keel --help` alone is printed by bin/keel.js from help.json: commander's path here.)
      const r = spawnSync(process.execPath, ["--import", trace, e2e.bin, "-m", "x", "--help"], {
        encoding: "utf8",
        env: { ...process.env, KEEL_HOME: work },
      });
      expect(r.status).toBe(0);
      const loaded = (await readFile(log, "utf8")).trim().split("\n");
      expect(loaded.some((u) => u.endsWith("/dist/bundle/keel.mjs"))).toBe(true);
      expect(loaded.filter((u) => u.includes("/node_modules/"))).toEqual([]);
      expect(loaded.filter((u) => u.includes("/dist/cli/"))).toEqual([]);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
