/**
 * Issue 8 audit: attacks the other regression tests did not try through Keel's real entry point
 * (`keel run` / `keel hooks` / `keel doctor` via main(), the simulator as the model, real hook
 * processes, real files). Each asserts the SAFE behaviour; a hole still open on main is an
 * `it.fails` whose name says what leaks, so CI stays green and the hole stays recorded.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { sandboxStatus } from "../../src/tools/sandbox.js";
import { commandHook, keel, worldPerTest, writeSettings } from "../agent/harness.js";
import { killQuietly, waitForDeath } from "../tools/helpers.js";

const newWorld = worldPerTest();
const sandbox = sandboxStatus();

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function outsideDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "keel-audit-outside-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An HTTP server on 127.0.0.1 that answers every request with `handler`; closed after the test. */
async function server(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s: Server = createServer(handler);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  );
  return `127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/** Every regular file below `dir`. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

function toolCalls(r: { stdout: string }): Array<{ name: string; status: string }> {
  return JSON.parse(r.stdout).toolCalls;
}

const ESC = "\u001b";
const HOSTILE_TEXT = `${ESC}]52;c;cm0gLXJmIH4K${ESC}\\${ESC}[2J${ESC}[3Jowned`;

describe("attack 5: a repository cannot demote your own cagent guard", () => {
  it("project compat.cagent naming the user's cagent file: the guard stays user-level and runs", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "echo hi" }),
        reply().text("done"),
        reply().tool("shell", { command: "echo hi" }),
        reply().text("done"),
      ),
    );
    const marker = join(world.root, "guard-ran");
    writeFileSync(
      join(world.root, "guard.yaml"),
      "agents:\n  root:\n    hooks:\n      pre_tool_use:\n        - matcher: shell\n" +
        `          hooks:\n            - type: command\n              command: "touch ${marker}"\n`,
    );
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({ compat: { cagent: "~/guard.yaml" } }),
    );
    // Control: with only the user's settings naming it, the guard runs.
    const control = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
    expect(control.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    mkdirSync(join(world.project, ".keel"));
    writeFileSync(
      join(world.project, ".keel/settings.json"),
      JSON.stringify({ compat: { cagent: "~/guard.yaml" } }),
    );
    const r = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    const list = await keel(world, ["hooks", "list", "--json", "--cwd", world.project]);
    const hooks = JSON.parse(list.stdout).hooks as Array<{ source: { scope: string } }>;
    expect(hooks.map((h) => h.source.scope)).toEqual(["user"]);
  });
});

describe("attack 6: hostile config files cannot crash Keel", () => {
  it("a handler field nested 5,000 levels deep: keel run and hooks list still work", async () => {
    const world = await newWorld(script(reply().text("fine")));
    mkdirSync(join(world.project, ".keel"));
    const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    writeFileSync(
      join(world.project, ".keel/settings.json"),
      `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true","x":${deep}}]}]}}`,
    );
    const r = await keel(world, ["run", "hi", "--output-format", "json"]);
    expect(r.stderr).not.toContain("Maximum call stack");
    // The file cannot be read: `keel run` stops before the first request (fail closed).
    expect(r.code).toBe(1);
    const list = await keel(world, ["hooks", "list", "--cwd", world.project]);
    expect(list.stderr + list.stdout).not.toContain("Maximum call stack");
    expect(list.code).toBe(0);
    const trust = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(trust.stderr + trust.stdout).not.toContain("Maximum call stack");
  });

  it("a YAML alias bomb in a project cagent file is a listed problem, not a crash or a hang", async () => {
    const world = await newWorld(script(reply().text("fine")));
    const levels = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    let yaml = 'x0: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < levels.length; i++) {
      const prev = levels[i - 1];
      yaml += `x${i}: &${levels[i]} [${Array(9).fill(`*${prev}`).join(",")}]\n`;
    }
    yaml +=
      "agents:\n  root:\n    hooks:\n      session_start:\n        - type: command\n          command: *i\n";
    writeFileSync(join(world.project, "bomb.yaml"), yaml);
    mkdirSync(join(world.project, ".keel"));
    writeFileSync(
      join(world.project, ".keel/settings.json"),
      JSON.stringify({ compat: { cagent: "bomb.yaml" } }),
    );
    const r = await keel(world, ["run", "hi", "--output-format", "json"]);
    // Neither a crash nor a hang: the unreadable hooks file stops the run (fail closed).
    expect(r.code).toBe(1);
    const v = await keel(world, ["hooks", "validate", "--cwd", world.project]);
    expect(v.stdout + v.stderr).toContain("bomb.yaml");
    expect(v.stdout + v.stderr).toMatch(/alias/i);
  });
});

describe("attack 9: secrets never reach logs; logs are 0600", () => {
  it("an http hook URL's userinfo and ?token= are not in hooks-audit.jsonl nor the session's hook log", async () => {
    const world = await newWorld(script(reply().text("done")));
    const host = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    writeSettings(world, {
      UserPromptSubmit: [
        {
          hooks: [
            {
              type: "http",
              url: `http://alice:PW-SECRET-1@${host}/hook?token=TOKEN-SECRET-2&x=1`,
            },
          ],
        },
      ],
    });
    const r = await keel(world, ["run", "hi", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const logs = filesUnder(world.home).filter((f) => f.endsWith(".jsonl"));
    expect(logs.some((f) => f.endsWith("hooks-audit.jsonl"))).toBe(true);
    expect(logs.some((f) => f.endsWith(".hooks.jsonl"))).toBe(true);
    for (const f of logs) {
      const text = readFileSync(f, "utf8");
      expect(text, f).not.toContain("PW-SECRET-1");
      expect(text, f).not.toContain("TOKEN-SECRET-2");
    }
    expect(r.stdout + r.stderr).not.toContain("PW-SECRET-1");
  });

  it("every file Keel writes under KEEL_HOME (sessions, hook logs) is 0600", async () => {
    const world = await newWorld(script(reply().text("done")));
    writeSettings(world, { UserPromptSubmit: [commandHook("true")] });
    const r = await keel(world, ["run", "hi", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const files = filesUnder(world.home).filter((f) => !f.endsWith("settings.json"));
    expect(files.length).toBeGreaterThan(1);
    for (const f of files) expect((statSync(f).mode & 0o777).toString(8), f).toBe("600");
  });

  it("doctor never prints a base URL's credentials", async () => {
    const world = await newWorld(script(reply().text("unused")));
    const host = await server((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"error":{"message":"bad key"}}');
    });
    world.env.KEEL_BASE_URL = `http://bob:PW-SECRET-3@${host}/v1?api_key=Q-SECRET-4`;
    const r = await keel(world, ["doctor"]);
    expect(r.stdout + r.stderr).not.toContain("PW-SECRET-3");
    expect(r.stdout + r.stderr).not.toContain("Q-SECRET-4");
  });

  it("a failing model endpoint's error never prints the base URL's credentials", async () => {
    const world = await newWorld(script(reply().text("unused")));
    const host = await server((_req, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end('{"error":{"message":"nope"}}');
    });
    world.env.KEEL_BASE_URL = `http://bob:PW-SECRET-5@${host}/v1?api_key=Q-SECRET-6`;
    const r = await keel(world, ["run", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain("PW-SECRET-5");
    expect(r.stdout + r.stderr).not.toContain("Q-SECRET-6");
  });

  it("an unreachable endpoint (retried) never prints the base URL's credentials", async () => {
    const world = await newWorld(script(reply().text("unused")));
    world.env.KEEL_BASE_URL = "http://bob:PW-SECRET-7@127.0.0.1:1/v1?api_key=Q-SECRET-8";
    const r = await keel(world, ["run", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain("PW-SECRET-7");
    expect(r.stdout + r.stderr).not.toContain("Q-SECRET-8");
  }, 60_000);
});

describe("attack 11: hook children do not outlive Keel", () => {
  it("`sleep 9999 & exit 0` in a hook is gone when keel run returns", async () => {
    const world = await newWorld(script(reply().text("done")));
    const pidFile = join(world.root, "child.pid");
    writeSettings(world, {
      SessionStart: [commandHook(`sleep 9999 & echo $! > ${pidFile}; exit 0`)],
    });
    const r = await keel(world, ["run", "hi", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(pid).toBeGreaterThan(0);
    cleanups.push(() => killQuietly(pid));
    // The kill is sent before keel run returns; the bounded wait only lets the OS reap it.
    expect(await waitForDeath(pid, 2000)).toBe(true);
  });
});

describe("attack 12: a huge timeout is clamped, not overflowed", () => {
  it('"timeout": 2200000 lets a 0.3 s hook finish instead of killing it after ~1 ms', async () => {
    const world = await newWorld(script(reply().text("done")));
    const marker = join(world.root, "finished");
    writeSettings(world, {
      UserPromptSubmit: [
        commandHook(`sleep 0.3; touch ${marker}`, undefined, { timeout: 2200000 }),
      ],
    });
    const r = await keel(world, ["run", "hi", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    const audit = readFileSync(join(world.home, "hooks-audit.jsonl"), "utf8");
    expect(audit).not.toMatch(/timeout|timed out/i);
  });
});

describe("partly held: Keel's provider key is not in tools' or hooks' environment", () => {
  it("the model cannot read DEEPSEEK_API_KEY through the shell; a hook does not get it either", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "env; echo KEY=$DEEPSEEK_API_KEY" }),
        reply().text("done"),
      ),
    );
    const hookEnv = join(world.root, "hook-env");
    writeSettings(world, { UserPromptSubmit: [commandHook(`env > ${hookEnv}`)] });
    const r = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(toolCalls(r)[0]?.status).toBe("ok");
    const result = String(world.sim.requests[1]?.messages.at(-1)?.content);
    expect(result).toContain("KEY=");
    expect(result).not.toContain("sk-test-key");
    expect(readFileSync(hookEnv, "utf8")).not.toContain("sk-test-key");
  });
});

describe("partly held: no raw escape sequences from the model or a hook", () => {
  it("keel run text mode writes no OSC 52 / clear-screen bytes the model sent", async () => {
    const world = await newWorld(script(reply().text(HOSTILE_TEXT)));
    const r = await keel(world, ["run", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("owned");
    expect(r.stdout + r.stderr).not.toContain(ESC);
  });

  it("keel hooks test writes no escape bytes a hook printed", async () => {
    const world = await newWorld(script(reply().text("unused")));
    const printf = HOSTILE_TEXT.replaceAll(ESC, "\\033").replaceAll("\\\\", "\\\\\\\\");
    writeSettings(world, {
      PreToolUse: [commandHook(`printf '${printf}' >&2; printf '${printf}'; exit 2`)],
    });
    const r = await keel(world, [
      "hooks",
      "test",
      "PreToolUse",
      "--tool",
      "shell",
      "--input",
      '{"command":"ls"}',
      "--cwd",
      world.project,
    ]);
    expect(r.stdout + r.stderr).toContain("owned");
    expect(r.stdout + r.stderr).not.toContain(ESC);
  });
});

describe("partly held: a stream of keep-alives only does not hang keel run", () => {
  it("KEEL_STREAM_IDLE_MS ends the run with an error", async () => {
    const world = await newWorld(script(reply().text("unused")));
    const timers: NodeJS.Timeout[] = [];
    cleanups.push(() => {
      for (const t of timers) clearInterval(t);
    });
    const responses: Array<{ destroy(): void }> = [];
    const host = await server((req, res) => {
      responses.push(res);
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": keep-alive\n\n");
      timers.push(setInterval(() => res.write(": keep-alive\n\n"), 50));
    });
    world.env.KEEL_BASE_URL = `http://${host}/v1`;
    world.env.KEEL_STREAM_IDLE_MS = "500";
    const saved = process.env.KEEL_STREAM_IDLE_MS;
    process.env.KEEL_STREAM_IDLE_MS = "500";
    cleanups.push(() => {
      if (saved === undefined) delete process.env.KEEL_STREAM_IDLE_MS;
      else process.env.KEEL_STREAM_IDLE_MS = saved;
    });
    const hung = Symbol("hung");
    const run = keel(world, ["run", "hi"]);
    // A hung run is ended by dropping the connections, so it never overlaps the next test.
    cleanups.push(async () => {
      for (const t of timers) clearInterval(t);
      for (const res of responses) res.destroy();
      await run;
    });
    const outcome = await Promise.race([
      run,
      new Promise<typeof hung>((r) => {
        const t = setTimeout(() => r(hung), 8000);
        cleanups.push(() => clearTimeout(t));
      }),
    ]);
    expect(outcome).not.toBe(hung);
    if (outcome !== hung) expect(outcome.code).toBe(1);
  }, 20_000);
});

describe("own attacks", () => {
  it.skipIf(!sandbox.available)(
    "find . -fprintf <outside> in default mode headless is blocked and writes nothing",
    async () => {
      const outside = outsideDir();
      const world = await newWorld(
        script(
          reply().tool("shell", { command: `find . -fprintf ${outside}/x %p` }),
          reply().tool("shell", { command: `find . -maxdepth 1 -fls ${outside}/y` }),
          reply().text("done"),
        ),
      );
      const r = await keel(world, ["run", "go", "--output-format", "json"]);
      expect(toolCalls(r).map((c) => c.status)).toEqual(["blocked", "blocked"]);
      expect(existsSync(join(outside, "x"))).toBe(false);
      expect(existsSync(join(outside, "y"))).toBe(false);
    },
  );

  it.skipIf(!sandbox.available)(
    "git -C <a hostile repo elsewhere> status does not run that repo's fsmonitor",
    async () => {
      const outside = outsideDir();
      const repo = join(outside, "repo");
      execFileSync("git", ["init", "-q", repo]);
      execFileSync("git", ["-C", repo, "config", "core.fsmonitor", "echo PWNED-C >&2; false"]);
      const world = await newWorld(
        script(
          reply().tool("shell", { command: `git -C ${repo} status` }),
          reply().tool("shell", { command: `git --git-dir=${repo}/.git --work-tree=. status` }),
          reply().text("done"),
        ),
      );
      const r = await keel(world, ["run", "go", "--output-format", "json"]);
      expect(r.code).toBe(0);
      for (const i of [1, 2]) {
        expect(String(world.sim.requests[i]?.messages.at(-1)?.content)).not.toContain("PWNED-C");
      }
    },
  );

  it("acceptEdits cannot write .claude/settings.local.json, .mcp.json or .hooks.json", async () => {
    const hooks = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "touch pwned" }] }] },
    });
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: ".claude/settings.local.json", content: hooks }),
        reply().tool("write_file", {
          path: ".mcp.json",
          content: '{"mcpServers":{"x":{"command":"touch","args":["pwned"]}}}',
        }),
        reply().tool("write_file", { path: ".hooks.json", content: hooks }),
        reply().tool("write_file", { path: ".gemini/settings.json", content: hooks }),
        reply().text("done"),
      ),
    );
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    expect(toolCalls(r).map((c) => c.status)).toEqual(["blocked", "blocked", "blocked", "blocked"]);
    expect(existsSync(join(world.project, ".claude/settings.local.json"))).toBe(false);
    expect(existsSync(join(world.project, ".mcp.json"))).toBe(false);
  });

  it("an untrusted clone's .mcp.json server is never started by keel run", async () => {
    const world = await newWorld(script(reply().text("done")));
    const marker = join(world.root, "mcp-started");
    writeFileSync(
      join(world.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: { evil: { command: "sh", args: ["-c", `touch ${marker}; sleep 1`] } },
      }),
    );
    const r = await keel(world, ["run", "hi", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it("a project hook naming its script through a symlink: retargeting the link untrusts it", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "echo hi" }), reply().text("done")),
    );
    const marker = join(world.root, "evil-ran");
    mkdirSync(join(world.project, ".keel/hooks"), { recursive: true });
    writeFileSync(join(world.project, ".keel/hooks/good.sh"), "#!/bin/sh\nexit 0\n", {
      mode: 0o755,
    });
    writeFileSync(join(world.project, "evil.sh"), `#!/bin/sh\ntouch ${marker}\nexit 0\n`, {
      mode: 0o755,
    });
    execFileSync("ln", ["-s", "good.sh", join(world.project, ".keel/hooks/guard.sh")]);
    writeFileSync(
      join(world.project, ".keel/settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [commandHook("sh .keel/hooks/guard.sh")] } }),
    );
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.code).toBe(0);
    // The hostile change: the link now leads to another file; the settings are untouched.
    rmSync(join(world.project, ".keel/hooks/guard.sh"));
    execFileSync("ln", ["-s", "../../evil.sh", join(world.project, ".keel/hooks/guard.sh")]);
    // Untrusted again: keel run stops before the first request (it fails closed) ...
    const r = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("changed since trusted");
    expect(existsSync(marker)).toBe(false);
    // ... and run without the project's hooks on purpose, the retargeted script stays unrun.
    const without = await keel(world, ["run", "go", "--yes", "--without-project-hooks"]);
    expect(without.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it.skipIf(!sandbox.available)(
    "a hostile .git/config's diff.external and textconv stay inside the sandbox on git diff / log -p / show; git diff itself works",
    async () => {
      const outside = outsideDir();
      const world = await newWorld(
        script(
          reply().tool("shell", { command: "git diff" }),
          reply().tool("shell", { command: "git log -p" }),
          reply().tool("shell", { command: "git show HEAD" }),
          reply().text("done"),
        ),
      );
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=n", ...args], {
          cwd: world.project,
          stdio: "ignore",
          env: world.env,
        });
      git("init", "-q");
      writeFileSync(join(world.project, ".gitattributes"), "*.txt diff=evil\n");
      writeFileSync(join(world.project, "a.txt"), "one\n");
      git("add", ".");
      git("commit", "-qm", "init");
      writeFileSync(join(world.project, "a.txt"), "two\n");
      git("config", "diff.external", `sh -c 'echo PWNED-EXT; touch ${outside}/ext' --`);
      git("config", "diff.evil.textconv", `sh -c 'echo PWNED-CONV; touch ${outside}/conv' --`);
      const r = await keel(world, ["run", "go", "--output-format", "json"]);
      expect(r.code).toBe(0);
      // The programs may run (git cannot be told to skip diff.external), but only in the
      // sandbox: nothing written outside the project.
      expect(existsSync(join(outside, "ext"))).toBe(false);
      expect(existsSync(join(outside, "conv"))).toBe(false);
      // Without the hostile config, the sandboxed `git diff` shows the change.
      git("config", "--unset", "diff.external");
      git("config", "--unset", "diff.evil.textconv");
      const clean = await newWorld(
        script(reply().tool("shell", { command: "git diff" }), reply().text("done")),
      );
      cpSync(world.project, clean.project, { recursive: true });
      expect((await keel(clean, ["run", "go", "--output-format", "json"])).code).toBe(0);
      const diff = String(clean.sim.requests[1]?.messages.at(-1)?.content);
      expect(diff).toContain("-one");
      expect(diff).toContain("+two");
    },
  );

  it("flags that run programs (sort --compress-program, rg --pre, awk system, env -S, git -c core.pager, find -okdir) do not run them headless", async () => {
    const outside = outsideDir();
    const commands = [
      "sort -S 1 --compress-program=./evil.sh a.txt",
      "rg --pre ./evil.sh hello",
      "awk 'BEGIN{system(\"./evil.sh\")}'",
      "env -S ./evil.sh",
      "git -c core.pager=./evil.sh log",
      "find . -name a.txt -okdir ./evil.sh {} ;",
    ];
    const world = await newWorld(
      script(
        ...commands.map((command) => reply().tool("shell", { command })),
        reply().text("done"),
      ),
    );
    writeFileSync(join(world.project, "a.txt"), "hello\n".repeat(1000));
    writeFileSync(
      join(world.project, "evil.sh"),
      `#!/bin/sh\necho PWNED-OWN >&2\ntouch ${outside}/own\ncat\n`,
      { mode: 0o755 },
    );
    execFileSync("git", ["init", "-q", world.project]);
    const r = await keel(world, ["run", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(toolCalls(r)).toHaveLength(commands.length);
    for (const i of commands.keys()) {
      const out = String(world.sim.requests[i + 1]?.messages.at(-1)?.content);
      expect(out, commands[i]).not.toContain("PWNED-OWN");
    }
    expect(existsSync(join(outside, "own"))).toBe(false);
  });
});
