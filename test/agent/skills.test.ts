/**
 * Skills, agent files and the todo list through `keel run` against the simulator, with a
 * `.claude/` folder shaped like a Claude Code user's (test/fixtures/claude-user/.claude: a skill
 * with a script and a reference file beside it, an agent file) copied into the world's HOME.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, type World, worldPerTest } from "./harness.js";

const newWorld = worldPerTest();
const FIXTURE = join(import.meta.dirname, "..", "fixtures", "claude-user", ".claude");

function asUser(w: World): void {
  cpSync(FIXTURE, join(w.root, ".claude"), { recursive: true });
}

/** User-level Claude Code hooks (`~/.claude/settings.json`): they see Claude's tool names. */
function claudeHooks(w: World, hooks: Record<string, unknown[]>): void {
  mkdirSync(join(w.root, ".claude"), { recursive: true });
  writeFileSync(join(w.root, ".claude", "settings.json"), JSON.stringify({ hooks }));
}

function projectSkill(w: World, name: string, frontmatter: string, body: string): void {
  const dir = join(w.project, ".claude", "skills", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), `---\n${frontmatter}\n---\n${body}\n`);
}

function toolDescription(toolsText: string | null | undefined, name: string): string {
  const tools = JSON.parse(toolsText ?? "[]") as {
    function: { name: string; description: string };
  }[];
  return tools.find((t) => t.function.name === name)?.function.description ?? "";
}

function toolResults(w: World): string[] {
  const last = w.sim.requests.at(-1);
  return (last?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content ?? "");
}

describe("skills", () => {
  it("lists the user's and the project's skills in the skill tool, loads one on call, reads a file beside it; PreToolUse matches Skill", async () => {
    const w = await newWorld(
      script(
        reply().tool("skill", { skill: "release-notes" }),
        reply().tool("skill", { skill: "release-notes", file: "reference/style.md" }),
        reply().tool("skill", { skill: "release-notes", file: "../../agents/code-reviewer.md" }),
        reply().text("Done."),
      ),
    );
    asUser(w);
    projectSkill(w, "lint-fix", "name: lint-fix\ndescription: Fix lint errors.", "Run the linter.");
    const log = join(w.root, "pre.log");
    const logger = hookScript(w, "log.sh", `cat >> "${log}"\necho >> "${log}"`);
    claudeHooks(w, { PreToolUse: [commandHook(logger, "Skill")] });
    const r = await keel(w, ["run", "write release notes"]);
    expect(r.code).toBe(0);
    const first = w.sim.requests[0];
    const description = toolDescription(first?.toolsText, "skill");
    expect(description).toContain(
      "Available skills:\n- lint-fix: Fix lint errors.\n- release-notes: Draft release notes",
    );
    // The body is not in the prefix: only the description line.
    expect(first?.toolsText).not.toContain("Group them under");
    const [body, style, outside] = toolResults(w);
    expect(body).toContain("Group them under **Added**");
    expect(body).toContain("- scripts/last-tag.sh");
    expect(body).toContain("- reference/style.md");
    expect(body).not.toContain("allowed-tools:");
    expect(style).toContain("Breaking changes start with");
    // A path out of the skill's folder to a file that exists is refused, its text not returned.
    expect(outside).toContain("is outside the folder");
    expect(outside).not.toContain("REVIEWER-PROMPT-MARKER");
    const fired = readFileSync(log, "utf8");
    expect(fired).toContain('"tool_name":"Skill"');
    expect(fired).toContain('"skill":"release-notes"');
  });

  it("a user's skill's allowed-tools approve its commands for the turn; a project skill's grant nothing; the user's wins a clash", async () => {
    const run = async (where: "user" | "project") => {
      const w = await newWorld(
        script(
          reply().tool("skill", { skill: "toucher" }),
          reply().tool("shell", { command: "touch made.txt" }),
          reply().text("Done."),
        ),
      );
      const fm = "name: toucher\ndescription: Touches files.\nallowed-tools: Bash(touch:*)";
      if (where === "project") projectSkill(w, "toucher", fm, "Touch it.");
      else {
        const dir = join(w.home, "skills", "toucher");
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, "SKILL.md"), `---\n${fm}\n---\nTouch it.\n`);
        // A project skill of the same name is ignored, with a notice.
        projectSkill(w, "toucher", "description: Hijacked.", "Do something else.");
      }
      const r = await keel(w, ["run", "touch it"]);
      return { w, r, made: existsSync(join(w.project, "made.txt")) };
    };
    const user = await run("user");
    expect(user.made).toBe(true);
    expect(user.r.stderr).toContain("your skill in");
    expect(toolDescription(user.w.sim.requests[0]?.toolsText, "skill")).not.toContain("Hijacked");
    const project = await run("project");
    expect(project.made).toBe(false);
  });

  it("a deny rule on Skill refuses the call", async () => {
    const w = await newWorld(
      script(reply().tool("skill", { skill: "release-notes" }), reply().text("ok")),
    );
    asUser(w);
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({ permissions: { deny: ["Skill(release-notes)"] } }),
    );
    const r = await keel(w, ["run", "notes", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("blocked");
    expect(toolResults(w)[0]).not.toContain("Group them under");
  });
});

describe("agent files", () => {
  it("the task tool offers them by subagent_type; the sub-agent gets the file's prompt and tools; hooks see agent_type", async () => {
    const SUB = { lastUserContains: "REVIEW" };
    const w = await newWorld(
      script(
        reply().tool("task", {
          description: "review the change",
          prompt: "REVIEW src.txt",
          subagent_type: "code-reviewer",
        }),
        reply().when(SUB).text("No issues in src.txt."),
        reply().text("Reviewed: no issues."),
      ),
    );
    asUser(w);
    writeFileSync(join(w.project, "src.txt"), "x\n");
    const log = join(w.root, "sub.log");
    const logger = hookScript(w, "log.sh", `cat >> "${log}"\necho >> "${log}"`);
    claudeHooks(w, { SubagentStart: [commandHook(logger)] });
    const r = await keel(w, ["run", "review", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe("Reviewed: no issues.");
    const main = w.sim.requests[0];
    expect(toolDescription(main?.toolsText, "task")).toContain(
      "Sub-agent types (subagent_type):\n- code-reviewer: Expert code review specialist.",
    );
    const sub = w.sim.requests.find((q) =>
      q.messages[0]?.content?.includes("REVIEWER-PROMPT-MARKER"),
    );
    expect(sub).toBeDefined();
    const subTools = (JSON.parse(sub?.toolsText ?? "[]") as { function: { name: string } }[])
      .map((t) => t.function.name)
      .sort();
    // `tools: Read, Grep, Glob` in Claude's names.
    expect(subTools).toEqual(["glob", "grep", "read_file"]);
    expect(readFileSync(log, "utf8")).toContain('"agent_type":"code-reviewer"');
  });
});

describe("todo_write", () => {
  it("emits the list as a todos event in stream-json; PreToolUse matches TodoWrite; the model gets a short confirmation", async () => {
    const todos = [
      { content: "Run the tests", status: "completed", activeForm: "Running the tests" },
      { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
    ];
    const w = await newWorld(script(reply().tool("todo_write", { todos }), reply().text("ok")));
    const log = join(w.root, "pre.log");
    const logger = hookScript(w, "log.sh", `cat >> "${log}"\necho >> "${log}"`);
    claudeHooks(w, { PreToolUse: [commandHook(logger, "TodoWrite")] });
    const r = await keel(w, ["run", "plan", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; todos?: unknown });
    const todoEvents = events.filter((e) => e.type === "todos");
    expect(todoEvents).toHaveLength(1);
    expect(todoEvents[0]?.todos).toEqual(todos);
    expect(toolResults(w)[0]).toBe(
      "Todo list updated: 2 items (1 completed, 1 in progress, 0 pending).",
    );
    expect(readFileSync(log, "utf8")).toContain('"tool_name":"TodoWrite"');
  });
});

describe("the prefix with skills and agent files present", () => {
  it("is byte-identical across two sessions in the project", async () => {
    const w = await newWorld(script(reply().text("one"), reply().text("two")));
    asUser(w);
    projectSkill(w, "b-skill", "description: Second.", "B");
    projectSkill(w, "a-skill", "description: First.", "A");
    mkdirSync(join(w.project, ".keel", "agents"), { recursive: true });
    writeFileSync(
      join(w.project, ".keel", "agents", "tester.md"),
      "---\nname: tester\ndescription: Runs tests.\n---\nTest things.\n",
    );
    expect((await keel(w, ["run", "hi"])).code).toBe(0);
    expect((await keel(w, ["run", "hi again"])).code).toBe(0);
    const [a, b] = w.sim.requests;
    expect(a?.toolsText).toContain("a-skill");
    expect(a?.toolsText).toContain("tester: Runs tests.");
    expect(b?.toolsText).toBe(a?.toolsText);
    expect(b?.messageTexts[0]).toBe(a?.messageTexts[0]);
  });
});
