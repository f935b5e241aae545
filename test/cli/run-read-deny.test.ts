/**
 * A Read deny rule (and KEEL_HOME) holds wherever a file is read for the model, through
 * `keel run` (in-process main()) against the simulator: memory imports, a custom command's
 * `@path` and its own file, edit_file as a probe, the read tools in a project holding KEEL_HOME;
 * and deny rules hold through git's global options and scheduling wrappers, and auto-approved
 * git readers do not print a barred file. (Red-team attacks 01, 02, 05, 08, 11–15.)
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

function sentText(world: World): string {
  return JSON.stringify(world.sim.requests.map((r) => r.messages));
}

/** The tool results the model got, in order. */
function toolResults(world: World): string[] {
  const last = world.sim.requests[world.sim.requests.length - 1];
  return (last?.messages ?? [])
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

function denyRead(world: World, rule = "Read(./.env)"): void {
  writeFileSync(
    join(world.home, "settings.json"),
    JSON.stringify({ permissions: { deny: [rule] } }),
  );
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd });
}

describe("keel run: a Read deny holds wherever a file is read for the model", () => {
  it("CLAUDE.md's @.env import is not sent (01)", async () => {
    const world = await newWorld(script(reply().text("ok")));
    writeFileSync(join(world.project, ".env"), "TOKEN=topsecret-envfile\n");
    writeFileSync(join(world.project, "CLAUDE.md"), "Project notes. @.env\n");
    denyRead(world);
    await keel(world, ["run", "hello"]);
    expect(world.sim.requests.length).toBeGreaterThan(0);
    expect(sentText(world)).toContain("Project notes");
    expect(sentText(world)).not.toContain("topsecret-envfile");
  });

  it("a project command's @.env is not attached (02)", async () => {
    const world = await newWorld(script(reply().text("ok")));
    writeFileSync(join(world.project, ".env"), "TOKEN=topsecret-envfile\n");
    mkdirSync(join(world.project, ".claude", "commands"), { recursive: true });
    writeFileSync(
      join(world.project, ".claude", "commands", "rev.md"),
      "---\ndescription: review\n---\nReview the configuration. @.env\n",
    );
    denyRead(world);
    await keel(world, ["run", "/rev"]);
    expect(sentText(world)).toContain("Review the configuration");
    expect(sentText(world)).not.toContain("topsecret-envfile");
  });

  it("a command file that links out of its folder is not loaded (12)", async () => {
    const world = await newWorld(script(reply().text("ok")));
    mkdirSync(join(world.root, ".ssh"), { recursive: true });
    writeFileSync(join(world.root, ".ssh", "id_rsa"), "PRIVATE-KEY-homesecret\n");
    mkdirSync(join(world.project, ".claude", "commands"), { recursive: true });
    symlinkSync(
      join(world.root, ".ssh", "id_rsa"),
      join(world.project, ".claude", "commands", "review.md"),
    );
    const r = await keel(world, ["run", "/review"]);
    expect(sentText(world)).not.toContain("homesecret");
    expect(r.stdout + r.stderr).not.toContain("homesecret");
  });

  it("a project commands folder that is a link out of the project is not loaded (issue 26)", async () => {
    const world = await newWorld(script(reply().text("ok")));
    // Every file in the linked folder is "inside" it: only the folder's own place gives it away.
    mkdirSync(join(world.root, "notes"), { recursive: true });
    writeFileSync(join(world.root, "notes", "review.md"), "Private notes: outsidesecret\n");
    mkdirSync(join(world.project, ".claude"), { recursive: true });
    symlinkSync(join(world.root, "notes"), join(world.project, ".claude", "commands"));
    const r = await keel(world, ["run", "/review"]);
    expect(sentText(world)).not.toContain("outsidesecret");
    expect(r.stdout + r.stderr).not.toContain("outsidesecret");
    expect(r.stderr).toMatch(/commands folder .*\.claude\/commands is a link out of the project/);
  });

  it("read_file and grep do not reach KEEL_HOME inside the project (05)", async () => {
    const world = await newWorld(
      script(
        reply().tool("read_file", { path: ".keel/config.json" }),
        reply().tool("grep", { pattern: "SECRET", path: "." }),
        reply().text("done"),
      ),
    );
    const keelHome = join(world.project, ".keel");
    mkdirSync(keelHome, { recursive: true });
    writeFileSync(join(keelHome, "config.json"), '{"apiKey":"sk-test-SECRET123456"}');
    world.env.KEEL_HOME = keelHome;
    await keel(world, ["run", "go", "--yes"]);
    const results = toolResults(world);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatch(/KEEL_HOME/);
    expect(sentText(world)).not.toContain("SECRET123456");
  });

  it("edit_file is no oracle on a Read-denied file (11)", async () => {
    const world = await newWorld(
      script(
        reply().tool("edit_file", { path: ".env", old_string: "TOKEN=a", new_string: "TOKEN=aX" }),
        reply().tool("edit_file", { path: ".env", old_string: "TOKEN=t", new_string: "TOKEN=tX" }),
        reply().text("done"),
      ),
    );
    writeFileSync(join(world.project, ".env"), "TOKEN=topsecret\n");
    denyRead(world);
    await keel(world, ["run", "go", "--mode", "acceptEdits"]);
    const results = toolResults(world);
    expect(results).toHaveLength(2);
    for (const r of results) expect(r).toMatch(/Denied by/);
    expect(readFileSync(join(world.project, ".env"), "utf8")).toBe("TOKEN=topsecret\n");
  });

  it("auto-approved git log -U3 and git status -v do not print a Read-denied file (14, 15)", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "git log -U3" }),
        reply().tool("shell", { command: "git status -v" }),
        reply().text("done"),
      ),
    );
    execFileSync("git", ["init", "-q", "."], { cwd: world.project });
    writeFileSync(join(world.project, ".env"), "TOKEN=old-secret\n");
    git(world.project, "add", ".env");
    git(world.project, "commit", "-qm", "i");
    writeFileSync(join(world.project, ".env"), "TOKEN=current-secret\n");
    git(world.project, "add", ".env");
    denyRead(world);
    await keel(world, ["run", "go"]);
    expect(toolResults(world)).toHaveLength(2);
    expect(sentText(world)).not.toMatch(/old-secret|current-secret/);
  });
});

describe("keel run: a Bash deny rule holds through git's global options and wrappers", () => {
  const cases: [string, string[]][] = [
    ["Bash(git push:*)", ["git -C . push origin HEAD", "git --no-pager push", "git -c a.b=c push"]],
    [
      "Bash(touch:*)",
      [
        "chrt -o 0 touch p1",
        "ionice -c3 touch p2",
        "flock /tmp/keel-lk touch p3",
        "watch -n 1 touch p4",
        "taskset 1 touch p5",
        "unshare -r touch p6",
        "prlimit --nofile=64 touch p7",
        "systemd-run --user touch p8",
        "stdbuf -o0 touch p9",
        "setsid touch p10",
      ],
    ],
  ];
  for (const [rule, commands] of cases) {
    it(`${rule} denies ${commands.join(", ")} in bypassPermissions (13, 08)`, async () => {
      const world = await newWorld(
        script(
          ...commands.map((command) => reply().tool("shell", { command })),
          reply().text("done"),
        ),
      );
      denyRead(world, rule);
      await keel(world, ["run", "go", "--mode", "bypassPermissions", "--yes"]);
      const results = toolResults(world);
      expect(results).toHaveLength(commands.length);
      for (const r of results) expect(r).toMatch(/Denied by/);
    });
  }
});
