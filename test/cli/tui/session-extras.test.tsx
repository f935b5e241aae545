/** TUI rendering of issue 11's events: memory loaded, a sub-agent inside its task card. */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/agent/events.js";
import { App } from "../../../src/cli/tui/app.js";
import { createPermissionBridge } from "../../../src/cli/tui/permission-bridge.js";
import { registerCustomCommands } from "../../../src/cli/tui/session-commands.js";
import { type FakeOptions, fakeBackend } from "./fake-backend.js";
import { hookRun, KEY, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

function mount(opts: FakeOptions = {}) {
  const { backend, log } = fakeBackend(opts);
  const r = render(<App backend={backend} permissions={createPermissionBridge()} />);
  const screen = (check: (s: string) => boolean) => waitForFrame(r.lastFrame, check);
  return { ...r, backend, log, screen, type: (t: string) => r.stdin.write(t) };
}

const inner = (event: AgentEvent): AgentEvent => ({
  type: "subagent",
  toolCallId: "t1",
  agentId: "agent_0123456789abcdef",
  agentType: "task",
  description: "find the port",
  event,
});

describe("session extras in the TUI", () => {
  it("says which memory files were loaded", async () => {
    const m = mount({
      startEvents: [
        {
          type: "memory_loaded",
          files: [
            {
              path: "/p/AGENTS.md",
              label: "AGENTS.md",
              scope: "project",
              bytes: 120,
              importedBy: null,
            },
            {
              path: "/p/docs/a.md",
              label: "docs/a.md",
              scope: "project",
              bytes: 30,
              importedBy: "/p/AGENTS.md",
            },
          ],
          skipped: [{ path: "/p/missing.md", reason: "not found", importedBy: "/p/AGENTS.md" }],
        },
      ],
    });
    const s = await m.screen((s) => s.includes("memory:"));
    expect(s).toContain("memory: AGENTS.md, docs/a.md (150 bytes); 1 skipped (/memory)");
  });

  it("shows a sub-agent's calls, refusals and blocking hooks inside its task card", async () => {
    const m = mount({
      turn: async function* (prompt) {
        yield { type: "turn_start", turn: 1, prompt };
        const input = { description: "find the port", prompt: "FIND it" };
        yield { type: "tool_call", id: "t1", name: "task", input };
        yield inner({
          type: "tool_call",
          id: "s1",
          name: "read_file",
          input: { path: "notes.txt" },
        });
        yield inner({ type: "tool_call", id: "s2", name: "shell", input: { command: "rm -rf /" } });
        yield inner({
          type: "hook_run",
          run: hookRun({ outcome: "block", message: "no shell in sub-agents", exitCode: 2 }),
        });
        yield inner({
          type: "tool_result",
          id: "s2",
          name: "shell",
          input: { command: "rm -rf /" },
          status: "blocked",
          content: "Blocked by a hook",
          durationMs: 1,
        });
        yield {
          type: "tool_result",
          id: "t1",
          name: "task",
          input,
          status: "ok",
          content: "The port is 8080.",
          durationMs: 30,
        };
        yield { type: "turn_end", turn: 1, text: "", stopReason: "end" };
      },
    });
    await m.screen((s) => s.includes("ask Keel"));
    m.type("what port?\r");
    const s = await m.screen(
      (s) => s.includes("The port is 8080") && s.includes("task → shell blocked"),
    );
    expect(s).toContain("task → read_file notes.txt");
    expect(s).toContain("no shell in sub-agents");
    // The sub-agent's lines are inside the card: after its header, before its result.
    // Inside the card: between its header and the prompt line that follows the turn.
    const card = s.slice(s.indexOf("⏺ task"), s.lastIndexOf("ask Keel"));
    expect(card).toContain("task → read_file notes.txt");
    expect(card).toContain("task → shell rm -rf /");
  });

  it("shows the todo list as a checklist each time the model writes it", async () => {
    const m = mount({
      turn: async function* (prompt) {
        yield { type: "turn_start", turn: 1, prompt };
        const todos = [
          {
            content: "Run the tests",
            status: "completed" as const,
            activeForm: "Running the tests",
          },
          { content: "Fix the bug", status: "in_progress" as const, activeForm: "Fixing the bug" },
          { content: "Write docs", status: "pending" as const, activeForm: "Writing docs" },
        ];
        yield { type: "tool_call", id: "t1", name: "todo_write", input: { todos } };
        yield { type: "todos", id: "t1", todos };
        yield {
          type: "tool_result",
          id: "t1",
          name: "todo_write",
          input: { todos },
          status: "ok",
          content: "Todo list updated: 3 items.",
          durationMs: 1,
        };
        yield { type: "turn_end", turn: 1, text: "On it.", stopReason: "end" };
      },
    });
    await m.screen((s) => s.includes("ask Keel"));
    m.type("plan it\r");
    const s = await m.screen((s) => s.includes("todos: 1/3 done"));
    expect(s).toContain("✔ Run the tests");
    expect(s).toContain("▶ Fixing the bug");
    expect(s).toContain("☐ Write docs");
  });

  it("lists custom commands in /help and completion, and runs /NAME args as a turn", async () => {
    const catalog = {
      commands: [
        {
          name: "review",
          source: "project" as const,
          path: "/p/.keel/commands/review.md",
          description: "Review a file",
          argumentHint: "<file>",
          allowedTools: [],
          model: null,
          body: "Review $1",
        },
      ],
      problems: [],
    };
    registerCustomCommands(catalog, ["help"]);
    try {
      const { backend, log } = fakeBackend();
      const agent = backend.agent;
      backend.agent = () => ({ ...agent(), commands: () => catalog });
      const r = render(<App backend={backend} permissions={createPermissionBridge()} />);
      const screen = (check: (s: string) => boolean) => waitForFrame(r.lastFrame, check);
      await screen((s) => s.includes("ask Keel"));
      r.stdin.write("/rev");
      await screen((s) => s.includes("/review <file>") && s.includes("Review a file (project)"));
      for (let i = 0; i < 4; i++) r.stdin.write(KEY.backspace);
      await screen((s) => s.includes("ask Keel, or /help"));
      r.stdin.write("/help");
      await screen((s) => s.includes("❯ /help"));
      r.stdin.write(KEY.enter);
      await screen((s) => s.includes("Commands") && s.includes("/review <file>"));
      r.stdin.write("/review src/a.ts\r");
      await expect.poll(() => log.calls).toContain("turn:/review src/a.ts");
    } finally {
      registerCustomCommands({ commands: [], problems: [] }, []);
    }
  });

  it("shows harvested plan state and the branch line; /harvest, /branch and /preset switch them", async () => {
    const reasoning = { harvest: false, branch: 1 };
    const { backend, log } = fakeBackend({
      turn: async function* (prompt) {
        yield { type: "turn_start", turn: 1, prompt };
        yield {
          type: "branch",
          samples: [
            { index: 0, temperature: 0, uncertainties: 2, answerChars: 40, costUsd: 0.001 },
            { index: 1, temperature: 0.5, uncertainties: 0, answerChars: 30, costUsd: 0.001 },
            { index: 2, temperature: 1, uncertainties: 3, answerChars: 20, costUsd: 0.001 },
          ],
          failed: 0,
          picked: 1,
          costUsd: 0.003,
        };
        yield {
          type: "harvest",
          plan: {
            subgoals: ["open box A", "label all"],
            hypotheses: [],
            uncertainties: [],
            rejectedPaths: ["sample apple box"],
          },
          costUsd: 0.0001,
        };
        yield { type: "text_delta", text: "Pick from the mixed box." };
        yield { type: "turn_end", turn: 1, text: "", stopReason: "end" };
      },
    });
    const agent = backend.agent;
    backend.agent = () => ({
      ...agent(),
      getReasoning: () => ({ ...reasoning }),
      setReasoning: (r: { harvest?: boolean; branch?: number }) => Object.assign(reasoning, r),
    });
    const r = render(<App backend={backend} permissions={createPermissionBridge()} />);
    const screen = (check: (s: string) => boolean) => waitForFrame(r.lastFrame, check);
    await screen((s) => s.includes("ask Keel"));
    r.stdin.write("puzzle\r");
    const s = await screen((s) => s.includes("Pick from the mixed box."));
    expect(s).toContain(
      "branched 3 samples → picked #1   #0 T=0.0 u=2   ▸#1 T=0.5 u=0   #2 T=1.0 u=3",
    );
    expect(s).toContain("‹ subgoals (2): open box A · label all");
    expect(s).toContain("‹ rejected (1): sample apple box");
    r.stdin.write("/harvest on\r");
    await screen((s) => s.includes("harvest on · branch off"));
    r.stdin.write("/branch 3\r");
    await screen((s) => s.includes("harvest on · branch 3 samples"));
    expect(reasoning).toEqual({ harvest: true, branch: 3 });
    r.stdin.write("/preset fast\r");
    await screen((s) => s.includes("preset fast: deepseek-v4-flash"));
    expect(reasoning).toEqual({ harvest: false, branch: 1 });
    expect(log.calls.filter((c) => c.startsWith("turn:"))).toEqual(["turn:puzzle"]);
  });

  it("/memory lists what was loaded and skipped; an automatic compaction says so", async () => {
    const { backend } = fakeBackend({
      turn: async function* (prompt) {
        yield { type: "turn_start", turn: 1, prompt };
        yield {
          type: "compacted",
          beforeMessages: 12,
          afterMessages: 1,
          trigger: "auto",
          promptTokensBefore: 90_000,
          costUsd: 0.001,
        };
        yield { type: "text_delta", text: "Continuing." };
        yield { type: "turn_end", turn: 1, text: "", stopReason: "end" };
      },
    });
    const agent = backend.agent;
    backend.agent = () => ({
      ...agent(),
      memory: () => ({
        files: [
          {
            path: "/p/AGENTS.md",
            label: "AGENTS.md",
            scope: "project" as const,
            importedBy: null,
            content: "Use tabs.\n",
          },
        ],
        skipped: [{ path: "/p/missing.md", reason: "not found", importedBy: "/p/AGENTS.md" }],
      }),
    });
    const r = render(<App backend={backend} permissions={createPermissionBridge()} />);
    const screen = (check: (s: string) => boolean) => waitForFrame(r.lastFrame, check);
    await screen((s) => s.includes("ask Keel"));
    r.stdin.write("/memory");
    await screen((s) => s.includes("❯ /memory"));
    r.stdin.write(KEY.enter);
    const s = await screen((s) => s.includes("loaded  AGENTS.md"));
    expect(s).toContain("loaded  AGENTS.md (project, 10 bytes)");
    expect(s).toContain("skipped /p/missing.md: not found (imported by /p/AGENTS.md)");
    r.stdin.write("go on\r");
    const after = await screen((s) => s.includes("Continuing."));
    expect(after).toContain("compacted automatically 12 → 1 message (");
  });
});
