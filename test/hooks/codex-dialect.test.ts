/**
 * The Codex dialect: `.codex/hooks.json` and `[[hooks.<Event>]]` tables in `config.toml`, read
 * by Codex's rules and run through the engine as real processes with Codex's payload (Bash,
 * apply_patch with the patch in `command`), its strict output rules and its exit codes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editPatch, inputFromPatch, readPatch } from "../../src/hooks/dialects/codex/patch.js";
import { codexMatcher } from "../../src/hooks/dialects/codex/read.js";
import { parseToml, TomlError } from "../../src/hooks/dialects/codex/toml.js";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../src/tools/hook-facts.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

const engine = () => createHookEngine({ ...worldOptions(w), tools: BUILTIN_TOOL_HOOK_FACTS });
const pre = (tool: string, input: Record<string, unknown>) =>
  buildPayload("PreToolUse", { projectDir: w.project, tool, input });

/** A hook script that records its stdin, then runs `then`. */
function recorder(name: string, then = "true") {
  const log = join(w.root, `${name}.json`);
  const command = w.write(`hooks/${name}.sh`, `#!/bin/sh\ncat > "${log}"\n${then}\n`, {
    executable: true,
  });
  return { command, seen: () => JSON.parse(readFileSync(log, "utf8")) as Record<string, unknown> };
}

const group = (matcher: string | undefined, command: string, extra: object = {}) => ({
  ...(matcher === undefined ? {} : { matcher }),
  hooks: [{ type: "command", command, ...extra }],
});

describe("reading Codex's files", () => {
  it("reads ~/.codex/hooks.json and the [[hooks.<Event>]] tables of config.toml", async () => {
    w.json("home/.codex/hooks.json", { hooks: { Stop: [group(undefined, "echo stop")] } });
    w.write(
      "home/.codex/config.toml",
      [
        'model = "gpt-5.5"',
        "[features]",
        "web_search = true # a setting of Codex's own",
        "",
        "[[hooks.PreToolUse]]",
        'matcher = "Bash"',
        "[[hooks.PreToolUse.hooks]]",
        'type = "command"',
        "command = '''echo \"pre\"'''",
        "timeout = 30",
        "",
        '[hooks.state."/x/hooks.json:stop:0:0"]',
        "enabled = true",
        "",
      ].join("\n"),
    );
    const hooks = (await engine()).listing().hooks;
    expect(hooks.map((h) => [h.event, h.source.dialect, h.handler.timeout ?? null])).toEqual([
      ["Stop", "codex", null],
      ["PreToolUse", "codex", 30],
    ]);
    expect(hooks[1]?.handler).toMatchObject({ type: "command", command: 'echo "pre"' });
  });

  it("a config.toml that is not TOML is one located error and no hooks", async () => {
    w.write("home/.codex/config.toml", '[[hooks.Stop]]\nmatcher = "x\n');
    const e = await engine();
    expect(e.listing().hooks).toHaveLength(0);
    const problem = e.listing().allProblems.find((p) => p.path.endsWith("config.toml"));
    expect(problem).toMatchObject({ severity: "error", line: 2 });
    expect(problem?.message).toMatch(/invalid TOML: unterminated string/);
  });

  it("a problem in config.toml names its field, not a line a JSON scanner guessed", async () => {
    w.write(
      "home/.codex/config.toml",
      'model = "x"\n\n[[hooks.PreToolUze]]\n[[hooks.PreToolUze.hooks]]\ntype = "command"\ncommand = "true"\n',
    );
    const problem = (await engine())
      .listing()
      .allProblems.find((p) => p.message.includes("PreToolUze"));
    expect(problem?.message).toMatch(/did you mean "PreToolUse"/);
    expect(problem?.line).toBeUndefined();
  });

  it("skips prompt and agent handlers and groups without hooks, as Codex does", async () => {
    w.json("home/.codex/hooks.json", {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "prompt", prompt: "is it safe?" }] },
          { matcher: "Bash", type: "command", command: "echo flat" },
          group("Bash", "echo kept"),
        ],
        Interrupt: [group(undefined, "echo interrupt")],
      },
    });
    const l = (await engine()).listing();
    expect(l.hooks.map((h) => (h.handler as { command?: string }).command)).toEqual(["echo kept"]);
    const messages = l.allProblems.map((p) => p.message).join("\n");
    expect(messages).toMatch(/Codex skips prompt hooks/);
    expect(messages).toMatch(/a group without "hooks" runs nothing/);
    expect(messages).toMatch(/unknown hook event "Interrupt"/);
  });

  it("a handler without type makes Codex refuse the whole file, so none of it runs", async () => {
    w.json("home/.codex/hooks.json", {
      hooks: {
        Stop: [group(undefined, "echo ok")],
        PreToolUse: [{ hooks: [{ command: "echo untyped" }] }],
      },
    });
    const l = (await engine()).listing();
    expect(l.hooks).toHaveLength(0);
    expect(l.allProblems.map((p) => p.message).join("\n")).toMatch(/type: missing; Codex refuses/);
  });

  it("project .codex hooks need trust like every project source", async () => {
    const r = recorder("proj", "echo no >&2; exit 2");
    w.json("project/.codex/hooks.json", { hooks: { PreToolUse: [group("Bash", r.command)] } });
    const e = await engine();
    expect(e.listing().hooks[0]?.trusted).toBe(false);
    const d = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    expect(d.runs).toHaveLength(0);
    await e.trust();
    const d2 = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    expect(d2.decision).toBe("block");
  });
});

describe("Codex matchers", () => {
  it("keeps names, adds apply_patch where Write or Edit is named, wraps regexes", () => {
    expect(codexMatcher("Bash", true)).toBe("Bash");
    expect(codexMatcher("Edit|Write", true)).toBe("Edit|Write|apply_patch");
    expect(codexMatcher("Ed.*", true)).toBe("(?:Ed.*)|^apply_patch$");
    expect(codexMatcher("^Bash$", true)).toBe("(?:^Bash$)");
    expect(codexMatcher("Bash,Write", true)).toBe("(?:Bash,Write)");
    expect(codexMatcher("[", true)).toBeUndefined();
  });

  it("a Write|Edit hook fires for Keel's file tools, a Bash hook does not", async () => {
    const r = recorder("edits");
    w.json("home/.codex/hooks.json", {
      hooks: { PreToolUse: [group("Write|Edit", r.command)] },
    });
    const e = await engine();
    const shell = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    expect(shell.runs).toHaveLength(0);
    const write = await e.fire({
      event: "PreToolUse",
      payload: pre("write_file", { path: "a.txt", content: "one\ntwo\n" }),
    });
    expect(write.runs).toHaveLength(1);
    expect(r.seen()).toMatchObject({
      tool_name: "apply_patch",
      tool_input: { command: "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** End Patch\n" },
    });
  });
});

describe("the payload Codex's hooks read", () => {
  it("Bash with {command} only, Codex's fields and none of Keel's own", async () => {
    const r = recorder("bash");
    w.json("home/.codex/hooks.json", { hooks: { PreToolUse: [group("Bash", r.command)] } });
    await (await engine()).fire({
      event: "PreToolUse",
      payload: {
        ...pre("shell", { command: "echo hi", timeout_ms: 5000 }),
        prompt_id: "p-1",
      } as ReturnType<typeof pre>,
    });
    const seen = r.seen();
    expect(seen).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      turn_id: "p-1",
    });
    expect(Object.keys(seen).sort()).toEqual(
      [
        "cwd",
        "hook_event_name",
        "permission_mode",
        "session_id",
        "tool_input",
        "tool_name",
        "tool_use_id",
        "transcript_path",
        "turn_id",
      ].sort(),
    );
  });

  it("edit_file is an Update File patch; PostToolUse's tool_response is the output text", async () => {
    const r = recorder("post");
    w.json("home/.codex/hooks.json", { hooks: { PostToolUse: [group("apply_patch", r.command)] } });
    await (await engine()).fire({
      event: "PostToolUse",
      payload: buildPayload("PostToolUse", {
        projectDir: w.project,
        tool: "edit_file",
        input: { path: "a.txt", old_string: "two", new_string: "TWO" },
        toolResponse: "edited a.txt",
      }),
    });
    expect(r.seen()).toMatchObject({
      tool_name: "apply_patch",
      tool_input: {
        command: "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** End Patch\n",
      },
      tool_response: "edited a.txt",
    });
  });
});

describe("Bash's tool_response", () => {
  it("is the command's raw output, without Keel's exit-code line", async () => {
    const r = recorder("bashpost");
    w.json("home/.codex/hooks.json", { hooks: { PostToolUse: [group("Bash", r.command)] } });
    const e = await engine();
    const post = (toolResponse: string) =>
      e.fire({
        event: "PostToolUse",
        payload: buildPayload("PostToolUse", {
          projectDir: w.project,
          tool: "shell",
          input: { command: "echo hi" },
          toolResponse,
        }),
      });
    await post("hi\n[exit code: 0]");
    expect(r.seen().tool_response).toBe("hi\n");
    await post("(no output)\n[exit code: 3]");
    expect(r.seen().tool_response).toBe("");
  });
});

describe("Codex's output and exit-code rules", () => {
  const fireWith = async (
    then: string,
    tool = "shell",
    input: object = { command: "rm -rf x" },
  ) => {
    const r = recorder("out", then);
    w.json("home/.codex/hooks.json", { hooks: { PreToolUse: [group(undefined, r.command)] } });
    return (await engine()).fire({ event: "PreToolUse", payload: pre(tool, { ...input }) });
  };
  // printf, not echo: sh's echo would turn the JSON's \n escapes into newlines.
  const json = (o: object) => `printf '%s\\n' '${JSON.stringify(o)}'`;

  it("exit 2 blocks with stderr as the reason; with nothing on stderr it still blocks (Keel's rule)", async () => {
    const d = await fireWith("echo 'not that' >&2; exit 2");
    expect(d).toMatchObject({ decision: "block", reason: "not that" });
    w.cleanup();
    w = makeWorld();
    const quiet = await fireWith("exit 2");
    expect(quiet.decision).toBe("block");
    expect(quiet.reason).toMatch(/^blocked by hook: /);
  });

  it("a deny needs a reason; ask and a bare allow are refused and change nothing", async () => {
    const deny = (extra: object) => ({
      hookSpecificOutput: { hookEventName: "PreToolUse", ...extra },
    });
    expect(
      (await fireWith(json(deny({ permissionDecision: "deny", permissionDecisionReason: "no" }))))
        .decision,
    ).toBe("deny");
    for (const out of [
      deny({ permissionDecision: "deny" }),
      deny({ permissionDecision: "ask", permissionDecisionReason: "sure?" }),
      deny({ permissionDecision: "allow" }),
      { decision: "approve" },
      { continue: false, stopReason: "halt" },
    ]) {
      w.cleanup();
      w = makeWorld();
      const d = await fireWith(json(out));
      expect(d.decision, JSON.stringify(out)).toBe("pass");
      expect(d.runs[0]?.outcome, JSON.stringify(out)).toBe("warn");
    }
  });

  it("a JSON deny at exit 1 is not read (the tool runs)", async () => {
    const d = await fireWith(
      `${json({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "no" } })}; exit 1`,
    );
    expect(d.decision).toBe("pass");
  });

  it("updatedInput with allow rewrites the command; it is no permission by itself", async () => {
    const d = await fireWith(
      json({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          updatedInput: { command: "echo rewritten" },
        },
      }),
      "shell",
      { command: "echo hi", timeout_ms: 5000 },
    );
    expect(d.updatedInput).toEqual({ command: "echo rewritten", timeout_ms: 5000 });
    expect(d.decision).toBe("pass");
  });

  it("a rewritten patch comes back as the same file tool's fields", async () => {
    const patch = editPatch("a.txt", "two", "2");
    const d = await fireWith(
      json({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          updatedInput: { command: patch },
        },
      }),
      "edit_file",
      { path: "a.txt", old_string: "two", new_string: "TWO" },
    );
    expect(d.updatedInput).toEqual({ path: "a.txt", old_string: "two", new_string: "2" });
  });
});

describe("patch text", () => {
  it("reads one Add or Update hunk and refuses what a single call cannot carry", () => {
    expect(readPatch("*** Begin Patch\n*** Add File: b.txt\n+x\n*** End Patch\n")).toEqual({
      kind: "write",
      path: "b.txt",
      content: "x\n",
    });
    expect(inputFromPatch("write_file", editPatch("a", "1", "2"))).toBeNull();
    expect(readPatch("*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n")).toBeNull();
    expect(
      readPatch("*** Begin Patch\n*** Update File: a\n@@\n-1\n+2\n@@\n-3\n+4\n*** End Patch\n"),
    ).toBeNull();
  });
});

describe("TOML", () => {
  it("reads the forms a config.toml uses", () => {
    const doc = parseToml(
      [
        "# comment",
        'a = "x\\ty\\u00e9"',
        "b = 'C:\\path'",
        'c = """',
        "two\\",
        '   lines"""',
        "d = [1, 0x1F, 1_000, -2.5e3, true,]",
        "e = { f = 1, g.h = 'i' }",
        "[t.u]",
        "v = 1979-05-27T07:32:00Z",
        "[[arr]]",
        "n = 1",
        "[[arr]]",
        "n = 2",
        "[arr.sub]",
        "m = 3",
      ].join("\n"),
    );
    expect(JSON.parse(JSON.stringify(doc))).toEqual({
      a: "x\tyé",
      b: "C:\\path",
      c: "twolines",
      d: [1, 31, 1000, -2500, true],
      e: { f: 1, g: { h: "i" } },
      t: { u: { v: "1979-05-27T07:32:00Z" } },
      arr: [{ n: 1 }, { n: 2, sub: { m: 3 } }],
    });
  });

  it("refuses duplicate keys and tables, located", () => {
    expect(() => parseToml("a = 1\na = 2")).toThrow(/defined twice at 2:1/);
    expect(() => parseToml("[x]\n[x]")).toThrow(TomlError);
    expect(() => parseToml("x = {a=1}\n[x]")).toThrow(TomlError);
    expect(() => parseToml('a = "\\q"')).toThrow(/invalid escape/);
  });
});
