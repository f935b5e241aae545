import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSession, openSession } from "../../src/session/list.js";
import { tempDirPerTest } from "./helpers.js";

const REPO = resolve(__dirname, "../..");
const STORE = resolve(REPO, "src/session/index.ts");

const home = tempDirPerTest("keel-home-");
const project = tempDirPerTest("keel-proj-");

// The child appends large messages forever, reporting each one after it is written.
const CHILD = `
import { createSession } from ${JSON.stringify(STORE)};
const s = createSession({ keelHome: process.env.KEEL_HOME, projectDir: process.env.PROJECT, model: "m" });
process.stdout.write("id " + s.id + "\\n");
for (let i = 0; ; i++) {
  s.appendMessage(JSON.stringify({ role: "user", content: "m" + i + " é\\n" + "x".repeat(50000) }), { turn: i });
  process.stdout.write("ok " + i + "\\n");
}
`;

describe("crash safety", () => {
  it("keeps every message appended before a SIGKILL mid-stream", async () => {
    const script = join(project.dir, "child.mts");
    writeFileSync(script, CHILD);
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: REPO,
      env: { ...process.env, KEEL_HOME: home.dir, PROJECT: project.dir },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let id = "";
    let confirmed = -1;
    let buffered = "";
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      child.on("exit", (_c, sig) => done(sig)),
    );
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith("id ")) id = line.slice(3);
        if (line.startsWith("ok ")) confirmed = Number(line.slice(3));
        if (confirmed >= 150) child.kill("SIGKILL");
      }
    });
    expect(await exited).toBe("SIGKILL");

    const loaded = loadSession({ keelHome: home.dir, id });
    expect(loaded.messages.length).toBeGreaterThanOrEqual(confirmed + 1);
    loaded.messages.forEach((m, i) => {
      expect(JSON.parse(m).content.startsWith(`m${i} é\n`)).toBe(true);
    });
    // At most the line in flight is lost; it is reported, not fatal.
    expect(loaded.warnings.length).toBeLessThanOrEqual(1);

    // Resume after the crash: new messages land after the old ones, readable.
    const { handle } = openSession({ keelHome: home.dir, id });
    handle.appendMessage('{"role":"user","content":"after crash"}', { turn: 9999 });
    handle.close();
    const after = loadSession({ keelHome: home.dir, id });
    expect(after.messages.at(-1)).toBe('{"role":"user","content":"after crash"}');
    expect(after.messages.length).toBe(loaded.messages.length + 1);
  });
});
