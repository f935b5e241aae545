/**
 * The rest of what the third independent attack (attacks3/) got through, each tried again through
 * the real entry point (`keel run` in this process, or the built CLI spawned asynchronously where
 * the attack blocks the process it runs in):
 * - 17: `WebFetch(domain:127.0.0.1)` did not hold for `http://[::ffff:127.0.0.1]:P/`;
 * - 20: a page of deeply nested tags pinned `keel run` in turndown, deaf to SIGTERM;
 * - 27/28: a FIFO at a checkpoint index or a session lock hung `--rewind` / `--resume`;
 * - 29: deep or key-heavy YAML frontmatter in a clone's SKILL.md / agent file slowed the start;
 * - 32: `.claude/agents/x.md` linked to a file in KEEL_HOME made that file a sub-agent prompt;
 * - 37: under umask 000, the compile-cache folders in KEEL_HOME were 0777.
 */
import { type ChildProcess, execFile, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();
const BIN = join(import.meta.dirname, "../../bin/keel.js");

/** Every byte the simulator was sent. */
const sent = (w: World) => JSON.stringify(w.sim.requests.map((r) => r.messages));

interface Spawned {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The built CLI, spawned without blocking this process (the simulator answers from here);
 *  killed with SIGKILL after `timeout` ms, which a blocked run cannot ignore. */
function spawnKeel(
  w: World,
  args: string[],
  timeout = 30_000,
  started?: (child: ChildProcess) => void,
): Promise<Spawned> {
  const t0 = Date.now();
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: w.env, cwd: w.project, encoding: "utf8", timeout, killSignal: "SIGKILL" },
      (err, stdout, stderr) => {
        const e = err as (Error & { code?: number; signal?: string }) | null;
        done({
          code: e ? (typeof e.code === "number" ? e.code : null) : 0,
          signal: e?.signal ?? null,
          stdout,
          stderr,
          ms: Date.now() - t0,
        });
      },
    );
    started?.(child);
  });
}

describe("attack 3b: web_fetch", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  async function serve(body: (url: string) => { type: string; text: string }, seen: string[]) {
    const server = createServer((req, res) => {
      seen.push(req.url ?? "");
      const b = body(req.url ?? "");
      res.writeHead(200, { "content-type": b.type });
      res.end(b.text);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return (server.address() as AddressInfo).port;
  }

  it("17: WebFetch(domain:127.0.0.1) holds for every spelling of the address", async () => {
    const seen: string[] = [];
    const port = await serve(() => ({ type: "text/plain", text: "hi" }), seen);
    const w = await newWorld(
      script(
        reply()
          .tool("web_fetch", { url: `http://[::ffff:127.0.0.1]:${port}/mapped` })
          .tool("web_fetch", { url: `http://[::ffff:7f00:1]:${port}/hex` })
          .tool("web_fetch", { url: `http://0x7f.1:${port}/short` }),
        reply().text("ok"),
      ),
    );
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({
        webFetch: { allowLoopback: true },
        permissions: { deny: ["WebFetch(domain:127.0.0.1)"] },
      }),
    );
    const r = await keel(w, ["run", "fetch", "--yes"]);
    expect(r.code).toBe(0);
    expect(seen).toEqual([]);
    expect(sent(w).match(/WebFetch\(domain:127\.0\.0\.1\)/g)?.length).toBe(3);
  });

  it("20: a page nested 110,000 deep comes back as stripped text, and SIGTERM ends the run", async () => {
    const n = 110_000;
    const page = `<html><body>${"<div><b>".repeat(n)}deep-text${"</b></div>".repeat(n)}</body></html>`;
    const seen: string[] = [];
    const port = await serve(() => ({ type: "text/html", text: page }), seen);
    const w = await newWorld(
      script(
        reply().tool("web_fetch", { url: `http://127.0.0.1:${port}/deep` }),
        reply().text("after-fetch-ok"),
        reply().tool("web_fetch", { url: `http://127.0.0.1:${port}/deep2` }),
        reply().text("after-second"),
      ),
    );
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({ webFetch: { allowLoopback: true } }),
    );
    // The whole run: converted or not, it ends, and the model is told why it got plain text.
    const r = await spawnKeel(w, ["run", "fetch", "--yes"]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("after-fetch-ok");
    expect(sent(w)).toContain("nested deeper than 256 levels");
    expect(sent(w)).toContain("deep-text");
    // SIGTERM once the page is being fetched: the run ends promptly (143), or had already
    // ended by itself (0); before the fix it sat in turndown for a minute, the signal unheard.
    let term = 0;
    // The signal is sent once THIS run asked for its page (/deep2): Keel is then past start-up
    // and has its SIGTERM handler (a signal during start-up under load would just kill it).
    const second = spawnKeel(w, ["run", "again", "--yes"], 40_000, (child) => {
      const poll = setInterval(() => {
        if (!seen.some((path) => path.includes("deep2"))) return;
        clearInterval(poll);
        setTimeout(() => {
          term = Date.now();
          child.kill("SIGTERM");
        }, 300);
      }, 50);
      child.on("exit", () => clearInterval(poll));
    });
    const r2 = await second;
    // Three endings are right: stopped by the handler (143), done by itself (0), or done and
    // winding down when the signal came. /deep2 was served, so the handler was installed; it is
    // removed once the session is closed (commands/run.ts), and a signal after that ends the
    // process the default way: SIGTERM, with nothing left to lose. What fails is a run still
    // in turndown long after the signal.
    if (r2.signal !== null) expect(r2.signal).toBe("SIGTERM");
    else expect([0, 143]).toContain(r2.code);
    // Ended by itself before the signal was due (term never set): then it ended well.
    if (term === 0) expect(r2.code).toBe(0);
    else expect(Date.now() - term).toBeLessThan(15_000);
  }, 90_000);
});

describe("attack 3b: session folder files", () => {
  async function sessionWithCheckpoint(w: World): Promise<string> {
    const first = await keel(w, [
      "run",
      "write",
      "--mode",
      "acceptEdits",
      "--output-format",
      "json",
    ]);
    expect(first.code).toBe(0);
    return (JSON.parse(first.stdout) as { sessionId: string }).sessionId;
  }

  it("27: a FIFO checkpoint index makes --rewind fail with a message, not hang", async () => {
    const w = await newWorld(
      script(
        reply().tool("write_file", { path: "a.txt", content: "one" }),
        reply().text("ok"),
        reply().text("ok2"),
      ),
    );
    const id = await sessionWithCheckpoint(w);
    const index = findFile(w.home, (n) => n === "index.jsonl");
    if (index === undefined) throw new Error("no checkpoint index");
    unlinkSync(index);
    spawnSync("mkfifo", [index]);
    const r = await spawnKeel(w, ["run", "again", "--resume", id, "--rewind", "1"]);
    expect(r.signal).toBeNull();
    expect(r.stderr).toMatch(/index\.jsonl is not a regular file/);
  }, 60_000);

  it("28: a FIFO session lock makes --resume fail with a message, not hang", async () => {
    const w = await newWorld(script(reply().text("a"), reply().text("b")));
    const first = await keel(w, ["run", "first", "--output-format", "json"]);
    expect(first.code).toBe(0);
    const id = (JSON.parse(first.stdout) as { sessionId: string }).sessionId;
    const file = findFile(join(w.home, "sessions"), (n) => n === `${id}.jsonl`);
    if (file === undefined) throw new Error("no session file");
    spawnSync("mkfifo", [`${file}.lock`]);
    const r = await spawnKeel(w, ["run", "again", "--resume", id]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/lock .*\.jsonl\.lock is not a regular file/);
  }, 60_000);
});

function findFile(dir: string, want: (name: string) => boolean): string | undefined {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile() && want(e.name)) return p;
    if (e.isDirectory()) {
      const found = findFile(p, want);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

describe("attack 3b: definition files", () => {
  it("32: a project agent file (or agents folder) linked into KEEL_HOME is not loaded", async () => {
    const w = await newWorld(
      script(
        reply().tool("task", { description: "x", prompt: "go", subagent_type: "vault" }),
        reply().text("sub"),
        reply().text("done"),
      ),
    );
    mkdirSync(join(w.home, "notes"), { recursive: true });
    writeFileSync(
      join(w.home, "notes/n.md"),
      "---\nname: vault\ndescription: private notes\n---\nPRIVATE-NOTE-TOKEN-77 lives here.\n",
    );
    mkdirSync(join(w.project, ".claude/agents"), { recursive: true });
    symlinkSync(join(w.home, "notes/n.md"), join(w.project, ".claude/agents/vault.md"));
    mkdirSync(join(w.project, ".keel"), { recursive: true });
    symlinkSync(join(w.home, "notes"), join(w.project, ".keel/agents"));
    const r = await keel(w, ["run", "go"]);
    expect(r.code).toBe(0);
    expect(sent(w)).not.toContain("PRIVATE-NOTE-TOKEN");
    expect(r.stderr).toMatch(/agents\/vault\.md: a link out of/);
    expect(r.stderr).toMatch(/\.keel\/agents\/n\.md: a link out of/);
  });

  it("29: deep, wide or nested-on-one-line frontmatter is refused by name before parsing", async () => {
    const w = await newWorld(script(reply().text("started-ok")));
    const skill = (name: string, fm: string) => {
      mkdirSync(join(w.project, ".claude/skills", name), { recursive: true });
      writeFileSync(join(w.project, ".claude/skills", name, "SKILL.md"), `---\n${fm}\n---\nb\n`);
    };
    const n = 60_000;
    skill("deep", `description: d\nx: ${"[".repeat(n)}${"]".repeat(n)}`);
    skill("dashes", `description: d\nx:\n  ${"- ".repeat(30_000)}y`);
    skill(
      "keys",
      `description: d\n${Array.from({ length: 9000 }, (_, i) => `k${i}: ${i}`).join("\n")}`,
    );
    mkdirSync(join(w.project, ".claude/agents"), { recursive: true });
    writeFileSync(
      join(w.project, ".claude/agents/deep.md"),
      `---\nname: deep\ndescription: d\ntools: ${"{a: ".repeat(20_000)}1${"}".repeat(20_000)}\n---\nb\n`,
    );
    const r = await keel(w, ["run", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("started-ok");
    expect(r.stderr).not.toMatch(/Maximum call stack/);
    expect(r.stderr).toMatch(/deep\/SKILL\.md: frontmatter is nested deeper than 64 levels/);
    expect(r.stderr).toMatch(/dashes\/SKILL\.md: frontmatter is indented more than 256/);
    expect(r.stderr).toMatch(/keys\/SKILL\.md: frontmatter has more than 2000 entries/);
    expect(r.stderr).toMatch(/agents\/deep\.md: frontmatter is nested deeper than 64 levels/);
  });
});

describe("attack 3b: file modes", () => {
  it("37: under umask 000 every folder Keel makes in KEEL_HOME is owner-only", async () => {
    const root = mkdtempSync(join(tmpdir(), "keel-umask-"));
    try {
      const home = join(root, "keel-home");
      const env: NodeJS.ProcessEnv = { ...process.env, KEEL_HOME: home, HOME: root };
      delete env.NODE_DISABLE_COMPILE_CACHE;
      await new Promise<void>((done) => {
        execFile(
          "sh",
          ["-c", 'umask 000; exec "$0" "$1" sessions', process.execPath, BIN],
          { env, cwd: root, timeout: 30_000 },
          () => done(),
        );
      });
      const open: string[] = [];
      const walk = (dir: string) => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          const p = join(dir, e.name);
          if ((statSync(p).mode & 0o077) !== 0) open.push(p.slice(home.length + 1));
          if (e.isDirectory()) walk(p);
        }
      };
      walk(home);
      expect(readdirSync(join(home, "cache/node")).length).toBeGreaterThan(0);
      expect(open).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
