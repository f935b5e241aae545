/**
 * The shell keeps its directory between calls (src/tools/shell-cwd.ts, src/agent/pipeline/
 * shell-cwd.ts), through `keel run` against the simulator — and a model that moves it cannot
 * get past what judges its calls: Read deny rules and the sandbox still hide the project's
 * barred files, Bash rules read its words as from the project, the file tools stay relative to
 * the project, a `cd` or a link out of the project puts the shell back, CwdChanged fires with
 * Claude Code's fields, and hooks get the shell's directory as `cwd`.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { sandboxStatus } from "../../src/tools/sandbox.js";
import {
  commandHook,
  hookScript,
  keel,
  type World,
  worldPerTest,
  writeSettings,
} from "../agent/harness.js";

const newWorld = worldPerTest();
const sandbox = sandboxStatus();

/** The tool results the model got, in order (the last request holds them all). */
function toolResults(world: World): string[] {
  const last = world.sim.requests[world.sim.requests.length - 1];
  return (last?.messages ?? [])
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

function sentText(world: World): string {
  return JSON.stringify(world.sim.requests.map((r) => r.messages));
}

function rules(world: World, permissions: Record<string, string[]>): void {
  writeFileSync(join(world.home, "settings.json"), JSON.stringify({ permissions }));
}

/** A project with `sub/` and a secret `.env` at its top. */
function project(world: World): { sub: string; real: string } {
  mkdirSync(join(world.project, "sub"), { recursive: true });
  writeFileSync(join(world.project, ".env"), "TOKEN=topsecret-envfile\n");
  const real = realpathSync(world.project);
  return { sub: join(real, "sub"), real };
}

/** A hook that appends its payload (one JSON line) to `<root>/<name>.jsonl`. */
function recorder(world: World, name: string): string {
  return hookScript(world, `${name}.sh`, `cat >> "${join(world.root, `${name}.jsonl`)}"`);
}

function recorded(world: World, name: string): Record<string, unknown>[] {
  const file = join(world.root, `${name}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("keel run: the shell keeps its directory", () => {
  it("a cd carries over to the next call; a resumed session starts there; a rewind puts it back", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "cd sub" }),
        reply().tool("shell", { command: "pwd" }),
        reply().text("one done"),
        reply().tool("shell", { command: "pwd" }),
        reply().text("two done"),
        reply().tool("shell", { command: "pwd" }),
        reply().text("three done"),
      ),
    );
    const { sub, real } = project(world);
    const first = await keel(world, ["run", "one", "--yes", "--output-format", "json"]);
    expect(first.code, first.stderr).toBe(0);
    expect(toolResults(world)[1]).toContain(sub);
    const id = JSON.parse(first.stdout).sessionId as string;

    const second = await keel(world, ["run", "two", "--yes", "--resume", id]);
    expect(second.code, second.stderr).toBe(0);
    expect(toolResults(world).at(-1)).toContain(sub);

    // Back to before turn 1: the cd of turn 1 is undone with it.
    const third = await keel(world, ["run", "three", "--yes", "--resume", id, "--rewind", "1"]);
    expect(third.code, third.stderr).toBe(0);
    const last = toolResults(world).at(-1) ?? "";
    expect(last).toContain(real);
    expect(last).not.toContain(sub);
  });

  it("a cd out of the project puts the shell back at the project, and says so as Claude Code does", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "cd sub && cd ../.." }),
        reply().tool("shell", { command: "pwd" }),
        reply().text("done"),
      ),
    );
    const { real } = project(world);
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const [cd, pwd] = toolResults(world);
    expect(cd).toContain(`Shell cwd was reset to ${world.project}`);
    expect(pwd?.split("\n")[0]).toBe(real);
  });

  it("a link to a folder outside the project puts the shell back", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "cd out" }),
        reply().tool("shell", { command: "pwd" }),
        reply().text("done"),
      ),
    );
    const { real } = project(world);
    // Outside the project and outside /tmp, so the sandbox shows it too.
    symlinkSync("/usr", join(world.project, "out"));
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const [cd, pwd] = toolResults(world);
    expect(cd).toContain("Shell cwd was reset to");
    expect(pwd?.split("\n")[0]).toBe(real);
  });
});

describe("keel run: after cd, the judges still judge from the project", () => {
  it.skipIf(!sandbox.available)(
    "Read(./.env) deny: cat ../.env and grep -r .. from sub/ do not show it (the sandbox hides the project's barred files)",
    async () => {
      const world = await newWorld(
        script(
          reply().tool("shell", { command: "cd sub" }),
          reply().tool("shell", {
            command: "pwd; cat ../.env; grep -r TOKEN .. ; cat ../sub/../.env",
          }),
          reply().text("done"),
        ),
      );
      const { sub } = project(world);
      rules(world, { deny: ["Read(./.env)"] });
      const r = await keel(world, ["run", "go"]);
      expect(r.code, r.stderr).toBe(0);
      const [, read] = toolResults(world);
      expect(read).toContain(sub);
      expect(sentText(world)).not.toContain("topsecret-envfile");
    },
  );

  it("Bash(rm:*) and Bash(rm ./x) denies: rm ../x from sub/ is refused", async () => {
    for (const rule of ["Bash(rm:*)", "Bash(rm ./x)"]) {
      const world = await newWorld(
        script(
          reply().tool("shell", { command: "cd sub" }),
          reply().tool("shell", { command: "pwd" }),
          reply().tool("shell", { command: "rm ../x" }),
          reply().text("done"),
        ),
      );
      const { sub } = project(world);
      writeFileSync(join(world.project, "x"), "keep me\n");
      rules(world, { deny: [rule] });
      const r = await keel(world, ["run", "go", "--yes"]);
      expect(r.code, r.stderr).toBe(0);
      const [, pwd, rm] = toolResults(world);
      expect(pwd).toContain(sub);
      expect(rm, rule).toMatch(/Denied by/);
      expect(existsSync(join(world.project, "x")), rule).toBe(true);
    }
  });

  it("an allow rule for ./scripts/test.sh does not run sub/scripts/test.sh after cd sub", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "cd sub" }),
        reply().tool("shell", { command: "./scripts/test.sh" }),
        reply().text("done"),
      ),
    );
    project(world);
    for (const dir of ["scripts", "sub/scripts"]) {
      mkdirSync(join(world.project, dir), { recursive: true });
      const marker = join(world.root, `${dir.replace("/", "-")}.ran`);
      writeFileSync(join(world.project, dir, "test.sh"), `#!/bin/sh\ntouch '${marker}'\n`, {
        mode: 0o755,
      });
    }
    rules(world, { allow: ["Bash(./scripts/test.sh)"] });
    // Headless without --yes: only the allow rule could approve the script.
    const r = await keel(world, ["run", "go"]);
    expect(r.code, r.stderr).toBe(0);
    expect(toolResults(world)[1]).toMatch(/needs the user's approval/);
    expect(existsSync(join(world.root, "sub-scripts.ran"))).toBe(false);
  });

  it("the file tools stay relative to the project: write_file ../.keel/settings.json from sub/ is outside it, and .keel/settings.json is protected", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "cd sub" }),
        reply().tool("write_file", { path: "../.keel/settings.json", content: "{}" }),
        reply().tool("write_file", { path: ".keel/settings.json", content: "{}" }),
        reply().tool("shell", { command: "echo '{}' > ../.keel/settings.json" }),
        reply().text("done"),
      ),
    );
    project(world);
    mkdirSync(join(world.project, ".keel"));
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits"]);
    expect(r.code, r.stderr).toBe(0);
    const [, outside, guarded, shell] = toolResults(world);
    expect(outside).toMatch(/outside the project directory/);
    expect(guarded).toMatch(/protected path/);
    expect(shell).toMatch(/needs the user's approval/);
    expect(existsSync(join(world.project, ".keel", "settings.json"))).toBe(false);
    expect(existsSync(join(world.project, "sub", ".keel"))).toBe(false);
  });
});

describe("keel run: CwdChanged and the hooks' cwd", () => {
  it("a guard hook's if condition Bash(rm ./x) still fires for rm ../x after cd sub", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "cd sub" }),
        reply().tool("shell", { command: "rm ../x" }),
        reply().text("done"),
      ),
    );
    project(world);
    writeFileSync(join(world.project, "x"), "keep me\n");
    const guard = hookScript(world, "guard.sh", "echo 'x is guarded' >&2; exit 2");
    mkdirSync(join(world.root, ".claude"), { recursive: true });
    writeFileSync(
      join(world.root, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [{ type: "command", command: guard, if: "Bash(rm ./x)" }] },
          ],
        },
      }),
    );
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(toolResults(world)[1]).toContain("x is guarded");
    expect(existsSync(join(world.project, "x"))).toBe(true);
  });

  it("CwdChanged fires once with old_cwd/new_cwd, and PreToolUse's cwd is the shell's", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "cd sub" }),
        reply().tool("shell", { command: "pwd" }),
        reply().tool("shell", { command: "cd .." }),
        reply().text("done"),
      ),
    );
    const { sub } = project(world);
    writeSettings(world, {
      CwdChanged: [commandHook(recorder(world, "cwd"))],
      PreToolUse: [commandHook(recorder(world, "pre"), "shell")],
    });
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const changes = recorded(world, "cwd");
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({
      hook_event_name: "CwdChanged",
      old_cwd: world.project,
      new_cwd: sub,
      cwd: sub,
    });
    expect(typeof changes[0]?.session_id).toBe("string");
    expect(changes[1]).toMatchObject({ old_cwd: sub, new_cwd: world.project });
    const pre = recorded(world, "pre").map((p) => p.cwd);
    expect(pre).toEqual([world.project, sub, sub]);
  });

  it("hooks validate no longer says a CwdChanged hook never fires", async () => {
    const world = await newWorld(script(reply().text("ok")));
    writeSettings(world, { CwdChanged: [commandHook("true")] });
    const r = await keel(world, ["hooks", "validate", "--cwd", world.project]);
    expect(r.stdout).toContain("ok: 1 hook from 1 file; 0 errors, 0 warnings");
    expect(r.stdout + r.stderr).not.toMatch(/never fires/);
  });
});
