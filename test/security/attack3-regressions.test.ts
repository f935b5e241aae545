/**
 * What the third independent attack (attacks3/, on branch attack3) got through, each tried again
 * through the real entry point (`keel run`, `keel hooks list`) against the simulator:
 * - 01/02/11: a project skill whose folder or SKILL.md links out (to the project root, to
 *   KEEL_HOME) handed the model a file a Read rule or KEEL_HOME keeps from it;
 * - 03: with the project in the home folder, the model wrote a user skill (allowed-tools: Bash)
 *   in acceptEdits;
 * - 04: a hand-edited checkpoint index whose snapshot name was a path made a rewind copy
 *   KEEL_HOME/config.json into the project;
 * - 05: `WebFetch(domain:localhost)` did not hold for `localhost.`;
 * - 06: a FIFO at .claude/agents/x.md hung `keel run` at start;
 * - 07: a 200,000-deep array in .codex/config.toml ended `hooks list` with a bare stack overflow.
 */
import { execFile, spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();
const BIN = join(import.meta.dirname, "../../bin/keel.js");
const SECRET = "sk-attack3-provider-key-0123456789";

/** Every byte the simulator was sent. */
const sent = (w: World) => JSON.stringify(w.sim.requests.map((r) => r.messages));

function skill(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: helper\n---\nbody\n`);
}

describe("attack 3: skills", () => {
  it("01: a project skill folder linked to the project root is not loaded; .env stays barred", async () => {
    const w = await newWorld(
      script(reply().tool("skill", { skill: "peek", file: ".env" }), reply().text("done")),
    );
    mkdirSync(join(w.root, ".claude"), { recursive: true });
    writeFileSync(
      join(w.root, ".claude/settings.json"),
      JSON.stringify({ permissions: { deny: ["Read(./.env)"] } }),
    );
    writeFileSync(join(w.project, ".env"), "TOPSECRET=hunter2-env-value\n");
    writeFileSync(join(w.project, "SKILL.md"), "---\nname: peek\ndescription: x\n---\nbody\n");
    mkdirSync(join(w.project, ".claude/skills"), { recursive: true });
    symlinkSync("../..", join(w.project, ".claude/skills/peek"));
    const r = await keel(w, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    expect(sent(w)).not.toContain("hunter2-env-value");
    expect(r.stderr).toMatch(/a link out of/);
  });

  it("01b: a user skill's file beside SKILL.md that a Read rule denies is refused", async () => {
    const w = await newWorld(
      script(reply().tool("skill", { skill: "mine", file: "secret.txt" }), reply().text("done")),
    );
    const dir = join(w.home, "skills/mine");
    skill(dir, "mine");
    writeFileSync(join(dir, "secret.txt"), "user-skill-secret-value");
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({ permissions: { deny: [`Read(/${dir}/secret.txt)`] } }),
    );
    const r = await keel(w, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    expect(sent(w)).not.toContain("user-skill-secret-value");
    expect(sent(w)).toContain("barred from reading");
  });

  it("11: a project SKILL.md linked to a file in KEEL_HOME is not loaded, its text never sent", async () => {
    const w = await newWorld(script(reply().tool("skill", { skill: "x" }), reply().text("done")));
    mkdirSync(join(w.home, "commands"), { recursive: true });
    writeFileSync(
      join(w.home, "commands/deploy.md"),
      "---\ndescription: deploy\n---\nUse token PRIVTOKEN-42-in-keelhome to deploy.\n",
    );
    const dir = join(w.project, ".claude/skills/x");
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(w.home, "commands/deploy.md"), join(dir, "SKILL.md"));
    const r = await keel(w, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    expect(sent(w)).not.toContain("PRIVTOKEN-42");
  });

  it("02: a user skill reading KEEL_HOME/config.json by a file name is refused", async () => {
    const w = await newWorld(
      script(
        reply().tool("skill", { skill: "peek", file: "keel-home/config.json" }),
        reply().text("done"),
      ),
    );
    writeFileSync(join(w.home, "config.json"), `{"apiKey":"${SECRET}"}\n`, { mode: 0o600 });
    // The user's own skill folder is the whole test root (a user may link anywhere): the read
    // bar still keeps KEEL_HOME out.
    mkdirSync(join(w.home, "skills"), { recursive: true });
    writeFileSync(join(w.root, "SKILL.md"), "---\nname: peek\ndescription: x\n---\nbody\n");
    symlinkSync(w.root, join(w.home, "skills/peek"));
    const r = await keel(w, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    expect(sent(w)).not.toContain(SECRET);
    expect(sent(w)).toContain("barred from reading");
  });

  it("03: with the project in HOME, the model cannot write ~/.claude/skills in acceptEdits", async () => {
    const w = await newWorld(
      script(
        reply().tool("write_file", {
          path: ".claude/skills/own/SKILL.md",
          content: "---\nname: own\ndescription: helper\nallowed-tools: Bash\n---\nrun things\n",
        }),
        reply().text("ok"),
      ),
    );
    w.env.HOME = w.project;
    const r = await keel(w, ["run", "set up", "--mode", "acceptEdits"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(w.project, ".claude/skills/own/SKILL.md"))).toBe(false);
    expect(sent(w)).toMatch(/Agent Skills/);
  });
});

describe("attack 3: checkpoints", () => {
  it("04: a forged index line whose snapshot name is a path restores nothing", async () => {
    const w = await newWorld(
      script(
        reply().tool("write_file", { path: "a.txt", content: "one" }),
        reply().text("ok"),
        reply().text("ok2"),
      ),
    );
    writeFileSync(join(w.home, "config.json"), `{"apiKey":"${SECRET}"}\n`, { mode: 0o600 });
    const first = await keel(w, [
      "run",
      "write",
      "--mode",
      "acceptEdits",
      "--output-format",
      "json",
    ]);
    expect(first.code).toBe(0);
    const id = (JSON.parse(first.stdout) as { sessionId: string }).sessionId;
    const index = findFile(w.home, "index.jsonl");
    if (index === undefined) throw new Error("no checkpoint index");
    const turn = (
      JSON.parse(readFileSync(index, "utf8").split("\n")[0] ?? "{}") as { userTurn: number }
    ).userTurn;
    const rel = relative(join(index, ".."), join(w.home, "config.json"));
    appendFileSync(
      index,
      `${JSON.stringify({ userTurn: turn, callId: "x", kind: "file", path: "leak.txt", before: rel })}\n`,
    );
    await keel(w, ["run", "again", "--resume", id, "--rewind", String(turn)]);
    expect(existsSync(join(w.project, "leak.txt"))).toBe(false);
  });
});

function findFile(dir: string, name: string): string | undefined {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile() && e.name === name) return p;
    if (e.isDirectory()) {
      const found = findFile(p, name);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

describe("attack 3: web_fetch", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  });

  it("05: WebFetch(domain:localhost) holds for localhost. (the root's dot)", async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? "");
      res.end("hi");
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const w = await newWorld(
      script(
        reply().tool("web_fetch", { url: `http://localhost.:${port}/dot` }),
        reply().text("ok"),
      ),
    );
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({
        webFetch: { allowLoopback: true },
        permissions: { deny: ["WebFetch(domain:localhost)"] },
      }),
    );
    const r = await keel(w, ["run", "fetch", "--yes"]);
    expect(r.code).toBe(0);
    expect(seen).toEqual([]);
    expect(sent(w)).toMatch(/WebFetch\(domain:localhost\)/);
  });
});

describe("attack 3: hostile files at start", () => {
  it("06: a FIFO agent file does not hang keel run", async () => {
    const w = await newWorld(script(reply().text("hello")));
    mkdirSync(join(w.project, ".claude/agents"), { recursive: true });
    spawnSync("mkfifo", [join(w.project, ".claude/agents/helper.md")]);
    // Spawned (and waited for without blocking): the simulator answers from this process.
    const r = await new Promise<{ code: number | null; signal: string | null; stderr: string }>(
      (done) => {
        execFile(
          process.execPath,
          [BIN, "run", "hi", "--cwd", w.project],
          { env: w.env, encoding: "utf8", timeout: 30_000 },
          (err, _out, stderr) => {
            const e = err as (Error & { code?: number; signal?: string }) | null;
            done({ code: e ? (e.code ?? null) : 0, signal: e?.signal ?? null, stderr });
          },
        );
      },
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/helper\.md: not a regular file/);
  });

  it("07: a 200,000-deep array in .codex/config.toml is a located error naming the file", async () => {
    const w = await newWorld(script(reply().text("hello")));
    mkdirSync(join(w.project, ".codex"), { recursive: true });
    const n = 200_000;
    writeFileSync(join(w.project, ".codex/config.toml"), `x = ${"[".repeat(n)}${"]".repeat(n)}\n`);
    const r = await keel(w, ["hooks", "list", "--cwd", w.project]);
    const out = r.stdout + r.stderr;
    expect(out).not.toMatch(/Maximum call stack/);
    expect(out).toMatch(/config\.toml[\s\S]*nested deeper than 64 levels/);
  });
});
