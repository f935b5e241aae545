/**
 * The trust / protected-path attacks of issue 26's second review (attacks 03, 04, 09, 10, 16),
 * each through the real `keel` entry point (in-process main()) against the simulator.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

function put(world: World, rel: string, text: string): void {
  const at = join(world.project, rel);
  mkdirSync(join(at, ".."), { recursive: true });
  writeFileSync(at, text);
}

function git(world: World, args: string[]): void {
  execFileSync("git", args, { cwd: world.project, stdio: "ignore", env: world.env });
}

async function firstStatus(world: World, args: string[]): Promise<string> {
  const r = await keel(world, ["run", "go", ...args, "--output-format", "json"]);
  if (r.stdout === "") throw new Error(r.stderr);
  return JSON.parse(r.stdout).toolCalls[0].status as string;
}

describe("protected paths", () => {
  it("03: a `.codex -> conf` link: conf/hooks.json is .codex/hooks.json and needs a person", async () => {
    const hooks = { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo x" }] }] } };
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "conf/hooks.json", content: JSON.stringify(hooks) }),
        reply().text("done"),
      ),
    );
    mkdirSync(join(world.project, "conf"));
    symlinkSync("conf", join(world.project, ".codex"));
    expect(await firstStatus(world, ["--mode", "acceptEdits"])).toBe("blocked");
    expect(existsSync(join(world.project, "conf", "hooks.json"))).toBe(false);
  });

  it("16: `.git` is a file naming the real git dir: its hooks/ need a person", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", {
          path: "gitstore/hooks/pre-commit",
          content: "#!/bin/sh\ntouch pwned\n",
        }),
        reply().text("done"),
      ),
    );
    git(world, ["init", "-q", `--separate-git-dir=${join(world.project, "gitstore")}`, "."]);
    expect(await firstStatus(world, ["--mode", "acceptEdits"])).toBe("blocked");
  });
});

describe("every dialect's project files are protected", () => {
  it("each project-side file a dialect reads, named directly and through a linked folder", async () => {
    const { DIALECT_LIST } = await import("../../src/hooks/index.js");
    const { protectedPathReason } = await import("../../src/agent/permissions/protected-paths.js");
    const world = await newWorld(script(reply().text("done")));
    const hooks = {
      listing: () =>
        ({ hooks: [], sources: [], problems: [], allProblems: [] }) as unknown as ReturnType<
          Parameters<typeof protectedPathReason>[1]["hooks"]["listing"]
        >,
    };
    const paths = { projectDir: world.project, keelHome: world.home, homeDir: world.root };
    const settings = { cagent: { user: [], project: [] } } as never;
    let checked = 0;
    for (const dialect of DIALECT_LIST) {
      for (const f of await dialect.files(paths, settings)) {
        if (!f.path.startsWith(`${world.project}/`)) continue;
        const rel = f.path.slice(world.project.length + 1);
        const ctx = { projectDir: world.project, hooks, keelHome: world.home };
        expect(await protectedPathReason(rel, ctx), `${dialect.name}: ${rel}`).not.toBeNull();
        const [dir, ...rest] = rel.split("/");
        if (rest.length > 0 && dir !== undefined) {
          const inProject = join(world.project, `conf-${checked}`);
          mkdirSync(inProject, { recursive: true });
          if (!existsSync(join(world.project, dir)))
            symlinkSync(inProject, join(world.project, dir));
          const target = join(`conf-${checked}`, ...rest);
          expect(
            await protectedPathReason(target, ctx),
            `${dialect.name}: ${target}`,
          ).not.toBeNull();
          rmSync(join(world.project, dir), { force: true });
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(8);
  });
});

describe("MCP allow rules", () => {
  it("04: the user's mcp__docs rule does not approve a server docs__x; the name is refused", async () => {
    const world = await newWorld(script(reply().text("done")));
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({
        mcpServers: { docs: { command: "true" } },
        permissions: { allow: ["mcp__docs"] },
      }),
    );
    put(world, ".mcp.json", JSON.stringify({ mcpServers: { docs__x: { command: "true" } } }));
    const r = await keel(world, ["mcp", "list", "--cwd", world.project]);
    expect(r.stdout + r.stderr).toContain(
      `${join(world.project, ".mcp.json")}: mcpServers.docs__x: a server name may not contain "__"`,
    );
    const { allowRuleMatches } = await import("../../src/mcp/index.js");
    expect(allowRuleMatches("mcp__docs", "mcp__docs__x__write")).toBe(true);
    expect(allowRuleMatches("mcp__docs__x", "mcp__docs__x__write")).toBe(false);
    expect(allowRuleMatches("mcp__docs__*", "mcp__docsx__write")).toBe(false);
    expect(allowRuleMatches("mcp__docs__read", "mcp__docs__read")).toBe(true);
    expect(allowRuleMatches("mcp__docs__read", "mcp__docs__read__more")).toBe(false);
  });
});

describe("settings that no longer parse", () => {
  it("10: a trusted guard's settings file with a conflict marker fails closed", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "touch pwned" }), reply().text("done")),
    );
    const settings = JSON.stringify({
      permissions: { deny: ["Bash(touch:*)"] },
      hooks: {
        PreToolUse: [
          {
            matcher: "shell",
            hooks: [{ type: "command", command: "grep -q touch && exit 2; exit 0" }],
          },
        ],
      },
    });
    put(world, ".keel/settings.json", settings);
    expect((await keel(world, ["hooks", "trust", "--cwd", world.project])).code).toBe(0);
    put(world, ".keel/settings.json", `${settings}\n<<<<<<< HEAD\n=======\n>>>>>>> other\n`);
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(join(world.project, ".keel", "settings.json"));
    expect(existsSync(join(world.project, "pwned"))).toBe(false);
  });
});

describe("hooks get git's safety overrides", () => {
  it("09: a trusted `git status` hook does not run the repository's core.fsmonitor", async () => {
    const world = await newWorld(
      script(reply().tool("read_file", { path: "a.txt" }), reply().text("done")),
    );
    git(world, ["init", "-q", "."]);
    const mark = join(world.root, "fsmonitor-ran");
    git(world, ["config", "core.fsmonitor", `touch ${mark}; false`]);
    put(world, "a.txt", "a\n");
    put(
      world,
      ".keel/settings.json",
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              hooks: [{ type: "command", command: "git status --short >/dev/null 2>&1; exit 0" }],
            },
          ],
        },
      }),
    );
    expect((await keel(world, ["hooks", "trust", "--cwd", world.project])).code).toBe(0);
    expect(await firstStatus(world, [])).toBe("ok");
    expect(existsSync(mark)).toBe(false);
  });
});

describe("trust covers what test runners run", () => {
  function postHook(world: World, command: string): void {
    put(
      world,
      ".keel/settings.json",
      JSON.stringify({
        hooks: { PostToolUse: [{ matcher: "write_file", hooks: [{ type: "command", command }] }] },
      }),
    );
  }

  it("06: `pytest tests`: the folder cannot be pinned, is named so, and tests/conftest.py needs a person", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "tests/sub/conftest.py", content: "import os\n" }),
        reply().text("done"),
      ),
    );
    put(world, "tests/test_a.py", "def test_ok(): assert True\n");
    postHook(world, "pytest -q tests >/dev/null 2>&1; exit 0");
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.stdout).toContain("cannot be pinned: reaches tests");
    expect(await firstStatus(world, ["--mode", "acceptEdits"])).toBe("blocked");
    expect(existsSync(join(world.project, "tests", "sub", "conftest.py"))).toBe(false);
  });

  it("07: `npm test` running `node test/run.js`: test/run.js is pinned and protected", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "test/run.js", content: "process.exit(0)\n" }),
        reply().text("done"),
      ),
    );
    put(world, "package.json", JSON.stringify({ scripts: { test: "node test/run.js" } }));
    put(world, "test/run.js", "console.log('ok')\n");
    postHook(world, "npm test --silent >/dev/null 2>&1; exit 0");
    expect((await keel(world, ["hooks", "trust", "--cwd", world.project])).code).toBe(0);
    expect(await firstStatus(world, ["--mode", "acceptEdits"])).toBe("blocked");
  });
});
