/**
 * End to end, the first hour: Markdown in answers, a slow hook named while it runs, a running
 * command's output streaming into its card, and a long paste in a narrow terminal — the real
 * `keel` binary in tmux against the simulator.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/builder.js";
import { type Simulator, startSimulator } from "../../src/sim/server.js";
import { e2eLifecycle, hasTmux, TmuxTerminal } from "./tui-harness.js";

const TMUX = hasTmux();
const e2e = e2eLifecycle();

async function session(sim: Simulator, opts: { width?: number; height?: number } = {}) {
  const { home, keelHome, project } = e2e.world("keel-tui-hour-");
  await mkdir(join(project, ".keel"));
  const config = join(keelHome, "config.json");
  await writeFile(config, JSON.stringify({ apiKey: "sk-e2e-0000", baseUrl: sim.url }));
  await chmod(config, 0o600);
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    KEEL_HOME: keelHome,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
  };
  const start = (argv: string[] = []) => {
    const term = new TmuxTerminal({
      cwd: project,
      env,
      argv: [process.execPath, e2e.bin, ...argv],
      ...opts,
    });
    e2e.terminals.push(term);
    return term;
  };
  return { project, home, start };
}

describe.skipIf(!TMUX)("the first hour (tmux)", () => {
  it("renders Markdown answers: headings, bold, lists, code with colours, no raw markers", async () => {
    const answer = [
      "# Release plan",
      "",
      "Ship it **today** with `npm publish`:",
      "",
      "- build the **bundle**",
      "- run the tests",
      "",
      "```ts",
      "const ready = true;",
      "```",
      "",
      "Done.",
    ].join("\n");
    const sim = await startSimulator({ script: script().text(answer).chunkChars(5) });
    e2e.sims.push(sim);
    const s = await session(sim);
    const term = s.start();
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    term.type("plan the release");
    term.press("Enter");
    const screen = await term.waitFor((t) => t.includes("Done.") && t.includes("ask Keel"), {
      what: "the answer",
    });
    expect(screen).toMatch(/^● Release plan$/m);
    expect(screen).toContain("Ship it today with npm publish:");
    expect(screen).toMatch(/^ {2}• build the bundle$/m);
    expect(screen).toMatch(/^ {4}const ready = true;$/m);
    expect(screen).not.toMatch(/\*\*|```|^#/m);
    const styled = term.styledScreen();
    // Bold text, and `const` coloured as a keyword.
    expect(styled).toMatch(/\x1b\[[0-9;]*1[0-9;]*mtoday/);
    expect(styled).toMatch(/\x1b\[[0-9;]*35[0-9;]*mconst/);
  }, 180_000);

  it("a resumed session's answers render as Markdown too, not as raw text", async () => {
    const answer =
      "# Release plan\n\nShip it **today** with `npm publish`:\n\n- build the **bundle**\n";
    const sim = await startSimulator({ script: script().text(answer) });
    e2e.sims.push(sim);
    const s = await session(sim);
    const first = s.start();
    await first.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    first.type("plan the release");
    first.press("Enter");
    await first.waitFor((t) => t.includes("build the bundle") && t.includes("ask Keel"), {
      what: "the answer",
    });
    first.press("C-d");
    await first.waitFor((t) => t.includes("KEEL_EXITED 0"), { what: "keel to exit" });
    const term = s.start(["--continue"]);
    const screen = await term.waitFor(
      (t) => t.includes("resumed session") && t.includes("ask Keel, or /help"),
      { what: "the resumed session" },
    );
    expect(screen).toMatch(/^● Release plan$/m);
    expect(screen).toContain("Ship it today with npm publish:");
    expect(screen).toMatch(/^ {2}• build the bundle$/m);
    expect(screen).not.toMatch(/\*\*|^. #/m);
  }, 180_000);

  it("names a slow PreToolUse hook while it runs, then streams the command's output into its card", async () => {
    const sim = await startSimulator({
      script: script()
        .reply(
          reply().tool("shell", {
            command: "echo stream-one; while [ ! -f go-two ]; do sleep 0.05; done; echo stream-two",
          }),
        )
        .text("All done."),
    });
    e2e.sims.push(sim);
    const s = await session(sim);
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
                  command: 'while [ ! -f "$KEEL_PROJECT_DIR/go-hook" ]; do sleep 0.05; done',
                },
              ],
            },
          ],
        },
      }),
    );
    const term = s.start(["--mode", "bypassPermissions"]);
    await term.waitFor((t) => t.includes("Trust these hooks") && t.includes("enter confirm"), {
      what: "the trust prompt",
    });
    term.type("y");
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    term.type("run it");
    term.press("Enter");
    // The hook hangs until the test releases it: the screen says which hook, and how long.
    let screen = await term.waitFor((t) => /running PreToolUse hook while \[.*… \d+\.\ds/.test(t), {
      what: "the hook spinner",
    });
    expect(screen).toMatch(/⏺ shell echo stream-one.* hook running/);
    expect(screen).not.toContain("stream-one\n");
    await writeFile(join(s.project, "go-hook"), "");
    // The command prints its first line and waits: the line is in the running card.
    screen = await term.waitFor((t) => /⎿ stream-one/.test(t) && /◌ running/.test(t), {
      what: "the streamed output",
    });
    expect(screen).not.toContain("stream-two");
    await writeFile(join(s.project, "go-two"), "");
    screen = await term.waitFor((t) => t.includes("All done.") && t.includes("ask Keel"), {
      what: "the end of the turn",
    });
    expect(screen).toMatch(/shell echo stream-one.* ✓ ok/);
    expect(screen).toContain("stream-two");
  }, 180_000);

  it("keeps a long indented paste inside a 60-column screen, and Ctrl+C leaves no copies", async () => {
    const sim = await startSimulator({ script: script().text("ok") });
    e2e.sims.push(sim);
    const s = await session(sim, { width: 60, height: 20 });
    const term = s.start();
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    const long = `    indented-marker ${"lorem ipsum dolor sit amet ".repeat(6).trim()}`;
    const paste = ["function f() {", long, "  pasted-end", "}"].join("\n");
    term.paste(paste);
    const screen = await term.waitFor((t) => t.includes("pasted-end"), { what: "the paste" });
    for (const line of screen.split("\n")) expect([...line].length).toBeLessThanOrEqual(60);
    // The wrapped rows of the long line keep its indent.
    const rows = screen.split("\n");
    const first = rows.findIndex((l) => l.includes("indented-marker"));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(rows[first + 1]).toMatch(/^\s{6,}\S/);
    term.press("C-c");
    await term.waitFor((t) => !t.includes("pasted-end"), { what: "the cleared prompt" });
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the empty prompt" });
    const history = term.all();
    expect(history).not.toContain("indented-marker");
    expect(history).not.toContain("pasted-end");
  }, 180_000);

  it("shows the user's statusLine command above Keel's status, updates it after a reply, never a project's", async () => {
    const sim = await startSimulator({ script: script().text("first answer") });
    e2e.sims.push(sim);
    const s = await session(sim);
    await mkdir(join(s.home, ".claude"), { recursive: true });
    const command = `echo "SL $(grep -o '"total_output_tokens":[0-9]*')"`;
    await writeFile(
      join(s.home, ".claude", "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command } }),
    );
    await mkdir(join(s.project, ".claude"), { recursive: true });
    await writeFile(
      join(s.project, ".claude", "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command: "echo PROJECT-RAN" } }),
    );
    const term = s.start();
    await term.waitFor((t) => t.includes('SL "total_output_tokens":0'), { what: "the first line" });
    expect(term.all().replace(/\s+/g, " ")).toContain("settings.json: statusLine is not run");
    term.type("hello");
    term.press("Enter");
    const screen = await term.waitFor(
      (t) => t.includes("first answer") && /SL "total_output_tokens":[1-9]/.test(t),
      { what: "the line after the reply" },
    );
    // Above Keel's own status line, which stays.
    const rows = screen.split("\n");
    const custom = rows.findIndex((l) => l.includes("SL "));
    expect(rows.slice(custom + 1).join("\n")).toMatch(/cache/);
    expect(term.all()).not.toContain("PROJECT-RAN");
  }, 180_000);
});
