/**
 * End to end: an MCP server's question in the real `keel` binary in tmux. The model calls
 * server-everything's `trigger-elicitation-request` (a form of thirteen fields of every kind, a
 * required name without default); the user approves the call, types the name, keeps every
 * default with Enter and sends. The server's own reply, which the model receives, says what it
 * got.
 */
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/builder.js";
import { startSimulator } from "../../src/sim/server.js";
import { EVERYTHING } from "../mcp/servers.js";
import { e2eLifecycle, hasTmux, TmuxTerminal } from "./tui-harness.js";

const TMUX = hasTmux();
if (!TMUX) console.warn("test/e2e/tui-elicitation.test.ts: tmux is not installed; skipping");

const e2e = e2eLifecycle({ skip: !TMUX });

describe.skipIf(!TMUX)("an MCP server asks the user (elicitation)", () => {
  it("the form takes a typed name and the defaults, and the server receives them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "keel-tui-elicit-"));
    e2e.dirs.push(dir);
    const keelHome = join(dir, "keel-home");
    const project = join(dir, "project");
    await mkdir(join(dir, "home"));
    await mkdir(keelHome);
    await mkdir(project);
    const sim = await startSimulator({
      script: script(
        reply().tool("mcp__everything__trigger-elicitation-request", {}),
        reply().text("Thanks, noted."),
      ),
    });
    e2e.sims.push(sim);
    const config = join(keelHome, "config.json");
    await writeFile(config, JSON.stringify({ apiKey: "sk-e2e-0000", baseUrl: sim.url }));
    await chmod(config, 0o600);
    await writeFile(
      join(keelHome, "settings.json"),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
      }),
    );
    const term = new TmuxTerminal({
      cwd: project,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: join(dir, "home"),
        KEEL_HOME: keelHome,
        TERM: "xterm-256color",
        LANG: "C.UTF-8",
      },
      argv: [process.execPath, e2e.bin],
      width: 100,
      height: 40,
    });
    e2e.terminals.push(term);
    await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
    term.type("ask me for my details");
    term.press("Enter");
    await term.waitFor((t) => t.includes("enter confirm"), { what: "the permission question" });
    term.type("y");
    let screen = await term.waitFor(
      (t) => t.includes("MCP server everything asks") && t.includes("enter next"),
      { what: "the form, armed", timeoutMs: 20_000 },
    );
    expect(screen).toContain("Please provide inputs for the following fields:");
    expect(screen).toMatch(/1\/13 String \(required\)/);
    term.type("Ada Lovelace");
    term.press("Enter");
    // Every other field: Enter keeps the default or leaves it out.
    for (let step = 2; step <= 13; step++) {
      await term.waitFor((t) => t.includes(`${step}/13 `), { what: `field ${step}` });
      term.press("Enter");
    }
    screen = await term.waitFor((t) => t.includes("enter send"), { what: "the answers" });
    expect(screen).toContain("String: Ada Lovelace");
    expect(screen).toContain("Integer: 42");
    term.press("Enter");
    await term.waitFor((t) => t.includes("Thanks, noted."), { what: "the answer" });
    const toolMessage = sim.requests[1]?.messages.find((m) => m.role === "tool");
    const text = typeof toolMessage?.content === "string" ? toolMessage.content : "";
    expect(text).toContain("User provided the requested information");
    expect(text).toContain("- Name: Ada Lovelace");
    expect(text).toContain("- Favorite Integer: 42");
  }, 180_000);
});
