/**
 * The user's `statusLine` command: which files may set it (the user's only), what it is told,
 * what of its output reaches the terminal, and the environment it runs in.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  readStatusCommand,
  runStatusCommand,
  statusDisplay,
  statusPayload,
} from "../../../src/cli/tui/status-command.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function world() {
  const root = mkdtempSync(join(tmpdir(), "keel-status-"));
  dirs.push(root);
  const paths = {
    keelHome: join(root, "keel"),
    homeDir: join(root, "home"),
    projectDir: join(root, "project"),
  };
  for (const d of [
    paths.keelHome,
    join(paths.homeDir, ".claude"),
    join(paths.projectDir, ".claude"),
  ]) {
    mkdirSync(d, { recursive: true });
  }
  const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));
  return { root, paths, write };
}

const payload = statusPayload({
  sessionId: "s-1",
  transcriptPath: "/t.jsonl",
  projectDir: "/p",
  model: "deepseek-chat",
  version: "0.1.0",
  costUsd: 0.01,
  durationMs: 5,
  inputTokens: 10,
  outputTokens: 2,
});

describe("readStatusCommand", () => {
  it("takes Claude Code's user setting, and Keel's own first", () => {
    const w = world();
    w.write(join(w.paths.homeDir, ".claude", "settings.json"), {
      statusLine: { type: "command", command: "echo claude" },
    });
    expect(readStatusCommand(w.paths).command?.command).toBe("echo claude");
    w.write(join(w.paths.keelHome, "settings.json"), {
      statusLine: { type: "command", command: "echo keel", padding: 0 },
    });
    expect(readStatusCommand(w.paths)).toEqual({
      command: { command: "echo keel", file: join(w.paths.keelHome, "settings.json") },
      notices: [],
    });
  });

  it("never runs a project's statusLine, and says so naming the file", () => {
    const w = world();
    const file = join(w.paths.projectDir, ".claude", "settings.json");
    w.write(file, { statusLine: { type: "command", command: "sh ./pwn.sh" } });
    const got = readStatusCommand(w.paths);
    expect(got.command).toBeNull();
    expect(got.notices).toEqual([expect.stringContaining(`${file}: statusLine is not run`)]);
  });

  it("names the file and field of a bad setting; disableAllHooks turns it off", () => {
    const w = world();
    const file = join(w.paths.homeDir, ".claude", "settings.json");
    w.write(file, { statusLine: { type: "text", command: "x" } });
    const bad = readStatusCommand(w.paths);
    expect(bad.command).toBeNull();
    expect(bad.notices[0]).toContain(`${file}: statusLine.type must be "command"`);
    w.write(file, { disableAllHooks: true, statusLine: { type: "command", command: "echo x" } });
    expect(readStatusCommand(w.paths)).toEqual({ command: null, notices: [] });
  });
});

describe("statusDisplay", () => {
  it("keeps colours, makes every other control visible, and closes an open colour", () => {
    const out = statusDisplay("\x1b[34mmain\x1b[0m \x1b]52;c;cHduZWQ=\x07x\u202eevil\nsecond line");
    expect(out).toContain("\x1b[34mmain\x1b[0m");
    expect(out).not.toContain("\x1b]");
    expect(out).not.toContain("\x07");
    expect(out).not.toContain("\u202e");
    expect(out).not.toContain("second line");
    expect(out.endsWith("\x1b[0m")).toBe(true);
    expect(statusDisplay("plain")).toBe("plain");
  });
});

describe("runStatusCommand", () => {
  it("gives the command Claude Code's JSON on stdin and shows its first line", async () => {
    const w = world();
    const seen = join(w.root, "seen.json");
    const cmd = { command: `cat > '${seen}'; echo "[$PWD] ok"; echo more`, file: "f" };
    const line = await runStatusCommand(cmd, payload, {
      cwd: w.paths.projectDir,
      env: process.env,
    });
    expect(line).toBe(`[${w.paths.projectDir}] ok`);
    const got = JSON.parse(readFileSync(seen, "utf8"));
    expect(got).toMatchObject({
      session_id: "s-1",
      transcript_path: "/t.jsonl",
      model: { id: "deepseek-chat", display_name: "deepseek-chat" },
      workspace: { current_dir: "/p", project_dir: "/p" },
      cost: { total_cost_usd: 0.01 },
    });
  });

  it("runs without the provider key in its environment", async () => {
    const w = world();
    const env = { ...process.env, DEEPSEEK_API_KEY: "sk-secret-status-0001" };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, on purpose
    const cmd = { command: 'echo "key=${DEEPSEEK_API_KEY:-none}"', file: "f" };
    expect(await runStatusCommand(cmd, payload, { cwd: w.paths.projectDir, env })).toBe("key=none");
  });

  it("blanks the line on a failure, on silence and on a timeout", async () => {
    const w = world();
    const run = (command: string) =>
      runStatusCommand({ command, file: "f" }, payload, {
        cwd: w.paths.projectDir,
        env: process.env,
      });
    expect(await run("echo partial; exit 3")).toBeNull();
    expect(await run("true")).toBeNull();
    const started = Date.now();
    expect(await run("sleep 30; echo late")).toBeNull();
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
