/**
 * Trust pins what a hook reaches, or says it cannot (issue 26, "Trust that does not cover what
 * runs"): through the real `keel hooks trust` and `keel hooks list --json`. A glob, run-parts, a
 * for loop, `make -C`, `npm --prefix` and `bash -c` reach files the hook does not name; changing
 * or adding one untrusts the hooks. A 2 GiB sparse file and a FIFO do not stall trust; a folder
 * reached through a pattern Keel cannot expand is named as "cannot be pinned" and protected.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

function projectHooks(world: World, commands: string[]): void {
  mkdirSync(join(world.project, ".keel"), { recursive: true });
  writeFileSync(
    join(world.project, ".keel", "settings.json"),
    JSON.stringify({
      hooks: { Stop: commands.map((command) => ({ hooks: [{ type: "command", command }] })) },
    }),
  );
}

function put(world: World, rel: string, text: string): void {
  const at = join(world.project, rel);
  mkdirSync(join(at, ".."), { recursive: true });
  writeFileSync(at, text);
}

async function trusted(world: World): Promise<boolean> {
  const r = await keel(world, ["hooks", "list", "--json", "--cwd", world.project]);
  return JSON.parse(r.stdout).projectTrust.trusted as boolean;
}

const CASES: {
  name: string;
  command: string;
  before: [string, string][];
  change: [string, string];
}[] = [
  {
    name: "a glob: a new matching script",
    command: 'for s in .keel/hooks/*.sh; do sh "$s"; done',
    before: [[".keel/hooks/a.sh", "echo a\n"]],
    change: [".keel/hooks/x.sh", "touch pwned\n"],
  },
  {
    name: "sh with a glob: an edit of a match",
    command: "sh .keel/hooks/*.sh",
    before: [[".keel/hooks/a.sh", "echo a\n"]],
    change: [".keel/hooks/a.sh", "touch pwned\n"],
  },
  {
    name: "run-parts DIR: a new file in DIR",
    command: "run-parts --regex . hooks.d",
    before: [["hooks.d/10-a", "#!/bin/sh\necho a\n"]],
    change: ["hooks.d/20-b", "#!/bin/sh\ntouch pwned\n"],
  },
  {
    name: "make -C tools: tools/Makefile",
    command: "make -C tools lint",
    before: [["tools/Makefile", "lint:\n\techo ok\n"]],
    change: ["tools/Makefile", "lint:\n\ttouch pwned\n"],
  },
  {
    name: "npm --prefix web: web/package.json",
    command: "npm --prefix web run lint",
    before: [["web/package.json", '{"scripts":{"lint":"echo ok"}}']],
    change: ["web/package.json", '{"scripts":{"lint":"touch pwned"}}'],
  },
  {
    name: "bash -c with a quoted command line",
    command: 'bash -c "cd tools && sh ./check.sh"',
    before: [["tools/check.sh", "echo ok\n"]],
    change: ["tools/check.sh", "touch pwned\n"],
  },
];

describe("keel hooks trust pins what a hook reaches", () => {
  for (const c of CASES) {
    it(`${c.name} untrusts the hooks`, async () => {
      const world = await newWorld(script(reply().text("ok")));
      projectHooks(world, [c.command]);
      for (const [rel, text] of c.before) put(world, rel, text);
      expect((await keel(world, ["hooks", "trust", "--cwd", world.project])).code).toBe(0);
      expect(await trusted(world)).toBe(true);
      put(world, c.change[0], c.change[1]);
      expect(await trusted(world)).toBe(false);
    });
  }

  it("a 2 GiB sparse file and a FIFO do not stall trust; a pattern folder cannot be pinned and is protected", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "plugins/new/run.sh", content: "touch pwned\n" }),
        reply().text("done"),
      ),
    );
    put(world, "big.sh", "");
    truncateSync(join(world.project, "big.sh"), 2 * 1024 ** 3);
    execFileSync("mkfifo", [join(world.project, "pipe.sh")]);
    mkdirSync(join(world.project, "plugins", "one"), { recursive: true });
    projectHooks(world, ["true ./big.sh ./pipe.sh", "for p in plugins/*/run.sh; do sh $p; done"]);
    const started = Date.now();
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain("cannot be pinned: reaches big.sh (too large to hash)");
    expect(t.stdout).toContain(
      "cannot be pinned: reaches plugins (the pattern plugins/*/run.sh reaches it)",
    );
    expect(await trusted(world)).toBe(true);
    // (The hook names the FIFO without opening it: a hook that reads one hangs until its own
    // timeout, which is the hook's doing, not trust's.)
    // The model writes a new plugin in acceptEdits: the folder is protected, headless refuses.
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("blocked");
  }, 30_000);

  it("trusting again shows what changed since the last trust", async () => {
    const world = await newWorld(script(reply().text("ok")));
    put(world, "tools/check.sh", "echo ok\n");
    projectHooks(world, ["sh tools/check.sh"]);
    const first = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(first.stdout).not.toContain("Changed since");
    put(world, "tools/check.sh", "touch pwned\n");
    projectHooks(world, ["sh tools/check.sh", "sh .keel/hooks/*.sh"]);
    put(world, ".keel/hooks/new.sh", "echo new\n");
    const again = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    const diff = again.stdout.slice(0, again.stdout.indexOf("Trusted"));
    expect(diff).toContain("Changed since you last trusted this project");
    expect(diff).toMatch(/- file tools\/check\.sh [0-9a-f]{16}/);
    expect(diff).toMatch(/\+ file tools\/check\.sh [0-9a-f]{16}/);
    expect(diff).toContain('+ hook Stop {"command":"sh .keel/hooks/*.sh"');
    expect(diff).toContain("+ file .keel/hooks/new.sh");
    expect(diff).toContain("+ files matching .keel/hooks/*.sh");
    expect(diff).not.toContain('- hook Stop {"command":"sh tools/check.sh"');
  });

  it("a case pattern is not a glob, and a file the glob does not match changes nothing", async () => {
    const world = await newWorld(script(reply().text("ok")));
    put(world, ".keel/hooks/a.sh", "echo a\n");
    projectHooks(world, ['f=x; case "$f" in *.json) echo json;; esac', "sh .keel/hooks/*.sh"]);
    expect((await keel(world, ["hooks", "trust", "--cwd", world.project])).code).toBe(0);
    put(world, "package.json", "{}");
    put(world, ".keel/hooks/README.md", "notes");
    expect(await trusted(world)).toBe(true);
  });
});
