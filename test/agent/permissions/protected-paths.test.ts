/** Protected paths: writes that could change what runs need a person in every mode but bypass. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { protectedPathReason } from "../../../src/agent/permissions/protected-paths.js";
import { createHookEngine } from "../../../src/hooks/engine.js";
import { reply, script } from "../../../src/sim/index.js";
import { agentFor, collect, keel, worldPerTest } from "../harness.js";

const newWorld = worldPerTest();

const FSMONITOR = "[core]\n\tfsmonitor = touch pwned\n";

function gitInit(dir: string): string {
  execFileSync("git", ["init", "-q", dir]);
  return readFileSync(join(dir, ".git/config"), "utf8");
}

describe("protected paths through keel run (headless, no --yes)", () => {
  it("acceptEdits cannot write .git/config (fsmonitor) — refused with the reason", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: ".git/config", content: FSMONITOR }),
        reply().text("done"),
      ),
    );
    const before = gitInit(world.project);
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("blocked");
    expect(readFileSync(join(world.project, ".git/config"), "utf8")).toBe(before);
    const toolMsg = world.sim.requests[1]?.messages.at(-1)?.content ?? "";
    expect(toolMsg).toContain(".git/config is a protected path");
    expect(toolMsg).toContain("headless");
  });

  it("acceptEdits cannot edit a hook's script; an ordinary file next to it is written", async () => {
    const world = await newWorld(
      script(
        reply()
          .tool("edit_file", {
            path: ".keel/hooks/guard.sh",
            old_string: "exit 0",
            new_string: "touch pwned; exit 0",
          })
          .tool("write_file", { path: "notes.txt", content: "fine" }),
        reply().text("done"),
      ),
    );
    mkdirSync(join(world.project, ".keel/hooks"), { recursive: true });
    writeFileSync(join(world.project, ".keel/hooks/guard.sh"), "exit 0\n");
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { hooks: [{ type: "command", command: `bash ${world.project}/.keel/hooks/guard.sh` }] },
          ],
        },
      }),
    );
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    const calls = JSON.parse(r.stdout).toolCalls;
    expect(calls.map((c: { status: string }) => c.status)).toEqual(["blocked", "ok"]);
    expect(readFileSync(join(world.project, ".keel/hooks/guard.sh"), "utf8")).toBe("exit 0\n");
    expect(readFileSync(join(world.project, "notes.txt"), "utf8")).toBe("fine");
  });

  it("acceptEdits cannot write the Makefile a user's `make fmt` hook runs (nor create one)", async () => {
    const world = await newWorld(
      script(
        reply()
          .tool("write_file", { path: "Makefile", content: "fmt:\n\t@touch pwned\n" })
          .tool("write_file", { path: "sub/Makefile", content: "x:\n" }),
        reply().text("done"),
      ),
    );
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({
        hooks: { PostToolUse: [{ hooks: [{ type: "command", command: "make -s fmt" }] }] },
      }),
    );
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    const calls = JSON.parse(r.stdout).toolCalls;
    expect(calls.map((c: { status: string }) => c.status)).toEqual(["blocked", "ok"]);
    expect(existsSync(join(world.project, "Makefile"))).toBe(false);
    expect(existsSync(join(world.project, "pwned"))).toBe(false);
  });

  it("acceptEdits cannot create a script a hook names before it exists, nor one reached after a cd, nor an .npmrc for npx", async () => {
    const world = await newWorld(
      script(
        reply()
          .tool("write_file", { path: ".keel/hooks/fmt.sh", content: "touch pwned\n" })
          .tool("write_file", { path: ".claude/hooks/local.sh", content: "touch pwned\n" })
          .tool("edit_file", {
            path: "tools/hooks/lint.sh",
            old_string: "echo lint",
            new_string: "touch pwned",
          })
          .tool("write_file", { path: ".npmrc", content: "node-options=--require=./evil.js\n" })
          .tool("write_file", { path: "notes.txt", content: "fine" }),
        reply().text("done"),
      ),
    );
    mkdirSync(join(world.project, "tools", "hooks"), { recursive: true });
    writeFileSync(join(world.project, "tools", "hooks", "lint.sh"), "echo lint\n");
    const hook = (command: string) => ({ hooks: [{ type: "command", command }] });
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({
        hooks: {
          Stop: [
            hook("bash ./.keel/hooks/fmt.sh 2>/dev/null || true"),
            hook('f="$CLAUDE_PROJECT_DIR/.claude/hooks/local.sh"; [ -f "$f" ] && bash "$f"; true'),
            hook('cd "$CLAUDE_PROJECT_DIR/tools/hooks" && ./lint.sh'),
            // prettier: a package Keel models (an unknown one, `npx fmt`, protects the whole
            // project: program-defaults.ts), so notes.txt stays writable.
            hook("npx --no-install prettier >/dev/null 2>&1; true"),
          ],
        },
      }),
    );
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    const calls = JSON.parse(r.stdout).toolCalls;
    expect(calls.map((c: { status: string }) => c.status)).toEqual([
      "blocked",
      "blocked",
      "blocked",
      "blocked",
      "ok",
    ]);
    expect(existsSync(join(world.project, ".keel", "hooks", "fmt.sh"))).toBe(false);
    expect(existsSync(join(world.project, ".npmrc"))).toBe(false);
    expect(existsSync(join(world.project, "pwned"))).toBe(false);
  });

  it("acceptEdits cannot assemble a bare repository (HEAD, objects/, refs/, config) for git to read", async () => {
    const world = await newWorld(
      script(
        reply()
          .tool("write_file", { path: "HEAD", content: "ref: refs/heads/main\n" })
          .tool("write_file", { path: "objects/.keep", content: "" })
          .tool("write_file", { path: "refs/.keep", content: "" })
          .tool("write_file", { path: "config", content: FSMONITOR }),
        reply().text("done"),
      ),
    );
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({
        hooks: {
          Stop: [{ hooks: [{ type: "command", command: "git status >/dev/null 2>&1; true" }] }],
        },
      }),
    );
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    const calls = JSON.parse(r.stdout).toolCalls;
    expect(calls.map((c: { status: string }) => c.status)).toEqual([
      "ok",
      "ok",
      "blocked",
      "blocked",
    ]);
    expect(existsSync(join(world.project, "config"))).toBe(false);
    expect(existsSync(join(world.project, "pwned"))).toBe(false);
    expect(world.sim.requests[1]?.messages.at(-1)?.content).toContain("a git repository");
  });

  it("--yes (the person's approval) writes them, except the files that switch guards off; bypass writes all", async () => {
    const cases: [string[], string, string][] = [
      [["--yes"], ".mcp.json", "ok"],
      // A hooks settings file can switch Keel's guards off: a person at the prompt decides it
      // (test/security/protected-yes.test.ts has the rest of that set).
      [["--yes"], ".claude/settings.json", "blocked"],
      [["--mode", "bypassPermissions"], ".claude/settings.json", "ok"],
    ];
    for (const [args, path, status] of cases) {
      const world = await newWorld(
        script(reply().tool("write_file", { path, content: "{}" }), reply().text("done")),
      );
      const r = await keel(world, ["run", "go", ...args, "--output-format", "json"]);
      expect(JSON.parse(r.stdout).toolCalls[0].status, `${args.join(" ")} ${path}`).toBe(status);
      expect(existsSync(join(world.project, path))).toBe(status === "ok");
    }
  });
});

describe("protected paths with a person", () => {
  it("asks even in acceptEdits, and 'allow always' does not carry over to the next one", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: ".mcp.json", content: "{}" }),
        reply().tool("write_file", { path: ".mcp.json", content: '{"mcpServers":{}}' }),
        reply().text("done"),
      ),
    );
    const asked: string[] = [];
    const always: (string | null)[] = [];
    const agent = await agentFor(world, {
      permissionMode: "acceptEdits",
      askPermission: async (req) => {
        asked.push(req.reason);
        always.push(req.always);
        return asked.length === 1 ? "allow_always" : "deny";
      },
    });
    await collect(agent.runTurn("go"));
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain(".mcp.json is a protected path");
    // The prompt is told the answer is not remembered, so it offers no "always".
    expect(always).toEqual([null, null]);
    expect(readFileSync(join(world.project, ".mcp.json"), "utf8")).toBe("{}");
  });
});

describe("protectedPathReason", () => {
  it("names .git at any depth, every dialect's settings, hook sources and executed files, links into them", async () => {
    const world = await newWorld(script(reply().text("x")));
    const p = world.project;
    mkdirSync(join(p, "scripts"), { recursive: true });
    writeFileSync(join(p, "scripts/check.py"), "print(1)\n");
    writeFileSync(join(p, "agent.yaml"), "hooks: {}\n");
    mkdirSync(join(p, ".keel"), { recursive: true });
    writeFileSync(
      join(p, ".keel/settings.json"),
      JSON.stringify({
        compat: { cagent: ["agent.yaml"] },
        hooks: {
          PreToolUse: [{ hooks: [{ type: "command", command: "python3 scripts/check.py" }] }],
        },
      }),
    );
    symlinkSync(join(p, ".git/hooks"), join(p, "innocent"));
    const hooks = await createHookEngine({
      projectDir: p,
      keelHome: world.home,
      homeDir: world.root,
    });
    const reason = (path: string) => protectedPathReason(path, { projectDir: p, hooks });
    for (const path of [
      ".git/config",
      ".git/hooks/pre-commit",
      "vendor/lib/.git/config",
      ".GIT/config",
      ".keel/settings.local.json",
      ".claude/settings.json",
      ".gemini/settings.json",
      ".qwen/settings.json",
      ".reasonix/config.toml",
      ".codex/hooks.json",
      ".codex/config.toml",
      ".agents/hooks.json",
      ".hooks.json",
      ".mcp.json",
      ".keel/commands/deploy.md",
      // Everything in .keel/ (Keel's project settings folder).
      ".keel/memory.md",
      ".claude/agents/x.md",
      "agent.yaml",
      "scripts/check.py",
      "./scripts/../scripts/check.py",
      "innocent/pre-commit",
      // `python3 scripts/check.py` puts scripts/ first on sys.path (python-path-reach.ts).
      "scripts/other.py",
    ]) {
      expect(await reason(path), path).not.toBeNull();
    }
    for (const path of ["src/index.ts", "scripts/other.txt", "keel/memory.md", "git/config"]) {
      expect(await reason(path), path).toBeNull();
    }
  });
});

describe("Keel's home (KEEL_HOME) inside the project", () => {
  const HOME_REASON = "inside Keel's home (KEEL_HOME)";

  // Project = the home directory (default ~/.keel), and KEEL_HOME set to a folder of the project.
  for (const [name, place] of [
    [
      "the project is the home directory",
      (w: { env: NodeJS.ProcessEnv; project: string }) => {
        w.env.HOME = w.project;
        delete w.env.KEEL_HOME;
      },
    ],
    [
      "KEEL_HOME is a folder of the project",
      (w: { env: NodeJS.ProcessEnv; project: string }) => {
        w.env.KEEL_HOME = join(w.project, ".keel");
      },
    ],
  ] as const) {
    it(`${name}: acceptEdits cannot plant a trust record, rewrite config.json or a code cache`, async () => {
      const world = await newWorld(
        script(
          reply()
            .tool("write_file", {
              path: ".keel/trust.json",
              content: JSON.stringify({ version: 1, projects: { "/x": "0".repeat(64) } }),
            })
            .tool("edit_file", {
              path: ".keel/config.json",
              old_string: "https://api.deepseek.com",
              new_string: "https://evil.example",
            })
            .tool("write_file", { path: ".keel/cache/start.cache", content: "planted" })
            .tool("write_file", { path: ".keel/permissions-trust.json", content: "{}" })
            .tool("write_file", { path: "notes.txt", content: "fine" }),
          reply().text("done"),
        ),
      );
      place(world);
      const keelDir = join(world.project, ".keel");
      mkdirSync(keelDir, { recursive: true });
      const config = JSON.stringify({ apiKey: "sk-real", baseUrl: "https://api.deepseek.com" });
      writeFileSync(join(keelDir, "config.json"), config);
      const r = await keel(world, [
        "run",
        "go",
        "--mode",
        "acceptEdits",
        "--output-format",
        "json",
      ]);
      const calls = JSON.parse(r.stdout).toolCalls;
      expect(calls.map((c: { status: string }) => c.status)).toEqual([
        "blocked",
        "blocked",
        "blocked",
        "blocked",
        "ok",
      ]);
      expect(existsSync(join(keelDir, "trust.json"))).toBe(false);
      expect(readFileSync(join(keelDir, "config.json"), "utf8")).toBe(config);
      expect(existsSync(join(keelDir, "cache", "start.cache"))).toBe(false);
      expect(readFileSync(join(world.project, "notes.txt"), "utf8")).toBe("fine");
      const toolMsgs = JSON.stringify(world.sim.requests[1]?.messages ?? []);
      expect(toolMsgs).toContain(`.keel/trust.json is a protected path: it is ${HOME_REASON}`);
    });
  }

  it("the agent's keelHome option (not $KEEL_HOME) is protected, in its sub-agents too", async () => {
    const sub = { lastUserContains: "FIND" };
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "kh/config.json", content: "{}" }),
        reply().tool("task", { description: "d", prompt: "FIND and fix" }),
        reply().when(sub).tool("write_file", { path: "kh/trust.json", content: "{}" }),
        reply().when(sub).text("could not"),
        reply().text("done"),
      ),
    );
    const kh = join(world.project, "kh");
    mkdirSync(kh, { recursive: true });
    writeFileSync(
      join(kh, "settings.json"),
      JSON.stringify({ subagents: { tools: ["write_file"] } }),
    );
    vi.stubEnv("KEEL_HOME", join(world.root, "elsewhere"));
    try {
      const agent = await agentFor(world, { keelHome: kh, permissionMode: "acceptEdits" });
      const events = await collect(agent.runTurn("go"));
      const write = events.find((e) => e.type === "tool_result" && e.name === "write_file");
      expect(write).toMatchObject({ status: "blocked" });
    } finally {
      vi.unstubAllEnvs();
    }
    expect(existsSync(join(kh, "config.json"))).toBe(false);
    expect(existsSync(join(kh, "trust.json"))).toBe(false);
    const subToolMsg = world.sim.requests[3]?.messages.at(-1)?.content ?? "";
    expect(subToolMsg).toContain(`kh/trust.json is a protected path: it is ${HOME_REASON}`);
  });

  it("protectedPathReason: KEEL_HOME reached through a link, as named or as it lands; the fallback is $KEEL_HOME", async () => {
    const world = await newWorld(script(reply().text("x")));
    const p = world.project;
    mkdirSync(join(p, "state"), { recursive: true });
    // KEEL_HOME is a link into the project: the project's state/ is Keel's home.
    const linkHome = join(world.root, "home-link");
    symlinkSync(join(p, "state"), linkHome);
    const hooks = await createHookEngine({
      projectDir: p,
      keelHome: linkHome,
      homeDir: world.root,
    });
    const ctx = { projectDir: p, hooks, keelHome: linkHome };
    for (const path of ["state/config.json", "state/cache/x.bin", "state/trust.json", "state"]) {
      expect(await protectedPathReason(path, ctx), path).toContain(HOME_REASON);
    }
    expect(await protectedPathReason(join(linkHome, "mcp-trust.json"), ctx)).toContain(HOME_REASON);
    // A link in the project to it: written through, it lands inside.
    symlinkSync(join(p, "state"), join(p, "innocent"));
    expect(await protectedPathReason("innocent/config.json", ctx)).toContain(HOME_REASON);
    expect(await protectedPathReason("stateful/config.json", ctx)).toBeNull();
    expect(await protectedPathReason("src/state/config.json", ctx)).toBeNull();
    // Without keelHome in the context: $KEEL_HOME, then ~/.keel.
    vi.stubEnv("KEEL_HOME", join(p, "kh"));
    try {
      expect(await protectedPathReason("kh/config.json", { projectDir: p, hooks })).toContain(
        HOME_REASON,
      );
      expect(await protectedPathReason("state/config.json", { projectDir: p, hooks })).toBeNull();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
