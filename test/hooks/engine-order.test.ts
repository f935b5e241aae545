/**
 * Which hooks of one firing run one after another: Reasonix (0.x and 1.x files as one list)
 * runs its in configuration order and stops at the first block, as Reasonix 1.38 does
 * (compat/reasonix-cases.ts "order:"); the tutorial format runs all of its in order, each seeing
 * the input the ones before it rewrote, as the tutorial's runner does; a Gemini group with
 * `sequential` runs in order without stopping (compat/gemini-cases.ts "order:"); Claude Code's
 * run alongside.
 * Each hook appends "start <id>" and "end <id>" to one log, so the log shows the interleaving.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

/** A hook that logs its start, sleeps, logs its end and exits with `exit`. */
const logged = (id: string, sleep: number, exit = 0) =>
  `echo "start ${id}" >> "$LOG"; sleep ${sleep}; echo "end ${id}" >> "$LOG"; exit ${exit}`;

/** A group of command hooks (Claude Code and Gemini CLI shape), `sequential` when asked. */
const group = (commands: string[], sequential = false) => ({
  ...(sequential ? { sequential: true } : {}),
  hooks: commands.map((command) => ({ type: "command", command })),
});

async function fire(tool = "shell") {
  const log = join(w.root, "order.log");
  const opts = worldOptions(w);
  const engine = await createHookEngine({ ...opts, env: { ...opts.env, LOG: log } });
  await engine.trust();
  const decision = await engine.fire({
    event: "PreToolUse",
    payload: buildPayload("PreToolUse", {
      projectDir: w.project,
      tool,
      input: { command: "ls" },
    }),
  });
  let lines: string[] = [];
  try {
    lines = readFileSync(log, "utf8").trim().split("\n");
  } catch {
    // No hook ran.
  }
  return { decision, lines };
}

describe("hooks that run one after another", () => {
  it("Reasonix hooks run in configuration order, project file before the user's", async () => {
    w.json("project/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ command: logged("p1", 0.2) }, { command: logged("p2", 0) }] },
    });
    w.json("home/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ command: logged("u1", 0) }] },
    });
    const { decision, lines } = await fire();
    expect(decision.decision).toBe("pass");
    expect(lines).toEqual(["start p1", "end p1", "start p2", "end p2", "start u1", "end u1"]);
  });

  it("the first Reasonix hook that blocks ends the list: later ones never start", async () => {
    w.json("project/.reasonix/settings.json", {
      hooks: {
        PreToolUse: [
          { command: logged("p1", 0) },
          { command: logged("p2", 0, 2) },
          { command: logged("p3", 0) },
        ],
      },
    });
    w.json("home/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ command: logged("u1", 0) }] },
    });
    const { decision, lines } = await fire();
    expect(decision.decision).toBe("block");
    expect(decision.runs.map((r) => r.command)).toHaveLength(2);
    expect(lines).toEqual(["start p1", "end p1", "start p2", "end p2"]);
  });

  it("a Reasonix hook that times out on a gating event blocks, and ends the list", async () => {
    w.json("project/.reasonix/settings.json", {
      hooks: {
        PreToolUse: [{ command: logged("slow", 5), timeout: 100 }, { command: logged("p2", 0) }],
      },
    });
    const { decision, lines } = await fire();
    expect(decision.decision).toBe("block");
    expect(lines).toEqual(["start slow"]);
  });

  it("tutorial hooks all run, in order, and one exit 1 blocks the call", async () => {
    w.json("project/.hooks.json", {
      hooks: {
        PreToolUse: [
          { matcher: "bash", command: logged("t1", 0.2) },
          { matcher: "bash", command: logged("t2", 0, 1) },
          { matcher: "bash", command: logged("t3", 0) },
        ],
      },
    });
    const { decision, lines } = await fire();
    expect(decision.decision).toBe("block");
    // The tutorial's runner goes on after a block: the hooks after it still run.
    expect(lines).toEqual(["start t1", "end t1", "start t2", "end t2", "start t3", "end t3"]);
  });

  it("a tutorial hook's updatedInput is the HOOK_TOOL_INPUT of the hooks after it", async () => {
    const seen = join(w.root, "seen.txt");
    w.json("project/.hooks.json", {
      hooks: {
        PreToolUse: [
          { matcher: "bash", command: `echo "$HOOK_TOOL_INPUT" >> '${seen}' # before` },
          {
            matcher: "bash",
            command: `echo '{"updatedInput": {"command": "ls -la"}}'`,
          },
          { matcher: "bash", command: `echo "$HOOK_TOOL_INPUT" >> '${seen}' # after` },
        ],
      },
    });
    const { decision } = await fire();
    expect(
      readFileSync(seen, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([{ command: "ls" }, { command: "ls -la" }]);
    expect(decision.updatedInput).toMatchObject({ command: "ls -la" });
  });

  it("Claude Code hooks run alongside each other, and alongside a Reasonix list", async () => {
    w.json("project/.claude/settings.json", {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: logged("c1", 0.4) },
              { type: "command", command: logged("c2", 0.4) },
            ],
          },
        ],
      },
    });
    w.json("project/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ command: logged("r1", 0.4) }, { command: logged("r2", 0) }] },
    });
    const { lines } = await fire();
    // All three lists start before the first 0.4 s sleep ends; r2 waits for r1.
    const firstEnd = lines.findIndex((l) => l.startsWith("end"));
    expect(lines.slice(0, firstEnd).sort()).toEqual(["start c1", "start c2", "start r1"]);
    expect(lines.indexOf("start r2")).toBeGreaterThan(lines.indexOf("end r1"));
    expect(lines).toHaveLength(8);
  });

  it("a Gemini group with sequential: true makes the whole firing run in order; a block does not stop it", async () => {
    w.json("home/.gemini/settings.json", {
      hooks: {
        BeforeTool: [
          group([logged("g1", 0.2, 2), logged("g2", 0)], true),
          group([logged("other", 0)]),
        ],
      },
    });
    const { decision, lines } = await fire();
    expect(decision.decision).toBe("block");
    // Gemini CLI's planner: one sequential entry among the matching ones makes the whole plan
    // sequential, so the other group waits too, in configuration order.
    expect(lines).toEqual(["start g1", "end g1", "start g2", "end g2", "start other", "end other"]);
  });

  it("hooks of one Gemini group without sequential run alongside each other", async () => {
    w.json("home/.gemini/settings.json", {
      hooks: {
        BeforeTool: [group([logged("g1", 0.3), logged("g2", 0)])],
      },
    });
    const { lines } = await fire();
    expect(lines.indexOf("end g2")).toBeLessThan(lines.indexOf("end g1"));
  });

  /** A hook that logs the command it was shown, then answers `answer` (JSON) or nothing. */
  const shows = (id: string, answer?: object) =>
    `printf '%s %s\\n' ${id} "$(jq -r .tool_input.command)" >> "$LOG"${answer ? `; echo '${JSON.stringify(answer)}'` : ""}`;
  const rewrite = (command: string) => ({
    hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command } },
  });

  it("in a Gemini sequential group, a rewrite reaches the next hook (as Gemini CLI's runner does)", async () => {
    w.json("home/.gemini/settings.json", {
      hooks: {
        BeforeTool: [
          group(
            [shows("g1", rewrite("ls -la")), shows("g2", rewrite("ls -la /tmp")), shows("g3")],
            true,
          ),
        ],
      },
    });
    const { decision, lines } = await fire();
    expect(lines).toEqual(["g1 ls", "g2 ls -la", "g3 ls -la /tmp"]);
    expect(decision.updatedInput).toEqual({ command: "ls -la /tmp" });
  });

  it("a failed hook's output, and hooks alongside each other, pass no rewrite on", async () => {
    w.json("home/.gemini/settings.json", {
      hooks: {
        BeforeTool: [
          group([`${shows("g1", rewrite("rm -rf x"))}; exit 1`, shows("g2")], true),
          group([shows("other", rewrite("ls -la"))]),
        ],
      },
    });
    const { lines } = await fire();
    expect([...lines].sort()).toEqual(["g1 ls", "g2 ls", "other ls"]);
  });

  it("a Claude Code block does not stop a Reasonix list (each agent's rule for its own hooks)", async () => {
    w.json("project/.claude/settings.json", {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: logged("c1", 0, 2) }] },
        ],
      },
    });
    w.json("project/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ command: logged("r1", 0.1) }, { command: logged("r2", 0) }] },
    });
    const { decision, lines } = await fire();
    expect(decision.decision).toBe("block");
    expect(lines).toContain("end r2");
  });
});
