import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { AppFrame, type AppFrameProps } from "../../../src/cli/tui/components/app-frame.js";
import { UserPrompt } from "../../../src/cli/tui/components/entry-view.js";
import { HookRow } from "../../../src/cli/tui/components/hook-row.js";
import { Reasoning } from "../../../src/cli/tui/components/reasoning.js";
import { StatusLine } from "../../../src/cli/tui/components/status-line.js";
import { ToolCard } from "../../../src/cli/tui/components/tool-card.js";
import { emptyEditor } from "../../../src/cli/tui/editor.js";
import { initialTranscript } from "../../../src/cli/tui/transcript.js";
import { hookRun, plain } from "./helpers.js";

afterEach(() => cleanup());

describe("ToolCard", () => {
  it("gives a hook's block reason once: in the hook's row, not again as the result", () => {
    const reason = "no echo here, use printf";
    const blocked = {
      id: "c1",
      name: "shell",
      input: { command: "echo hi" },
      status: "blocked" as const,
      startedAt: 0,
      durationMs: 90,
      content: `Blocked by PreToolUse hook \`./scripts/guard.sh\`: ${reason}`,
    };
    const byHook = plain(
      render(
        <ToolCard
          width={80}
          card={{
            ...blocked,
            attached: [{ kind: "hook", run: hookRun({ outcome: "block", message: reason }) }],
          }}
        />,
      ).lastFrame(),
    );
    expect(byHook).toContain(`reason: ${reason}`);
    expect(byHook.split(reason).length - 1, byHook).toBe(1);
    // Blocked by a rule (no hook row): the result is the only place the reason is.
    const byRule = plain(
      render(
        <ToolCard width={80} card={{ ...blocked, content: "Denied by the rule Bash(echo:*)" }} />,
      ).lastFrame(),
    );
    expect(byRule).toContain("⎿ Denied by the rule Bash(echo:*)");
  });

  it("shows name, key argument, status, duration and a preview", () => {
    const { lastFrame } = render(
      <ToolCard
        width={80}
        card={{
          id: "c1",
          name: "shell",
          input: { command: "ls -la src" },
          status: "ok",
          startedAt: 0,
          durationMs: 1234,
          content: "a.ts\nb.ts\nc.ts\nd.ts\ne.ts\n",
        }}
      />,
    );
    const screen = plain(lastFrame());
    expect(screen).toContain("shell ls -la src");
    expect(screen).toContain("✓ ok 1.2s");
    expect(screen).toContain("⎿ a.ts");
    expect(screen).toContain("c.ts");
    expect(screen).not.toContain("d.ts");
    expect(screen).toContain("… 2 more lines");
  });

  it('shows a fourth line itself rather than "… 1 more line" in its place', () => {
    const card = { id: "c", name: "shell", input: { command: "ls" }, status: "ok" as const };
    const content = "a.ts\nb.ts\nc.ts\nd.ts\n";
    const { lastFrame } = render(
      <ToolCard width={80} card={{ ...card, startedAt: 0, durationMs: 5, content }} />,
    );
    const screen = plain(lastFrame());
    expect(screen).toContain("d.ts");
    expect(screen).not.toContain("more line");
  });

  it("shows a running card's elapsed time from `now`", () => {
    const { lastFrame } = render(
      <ToolCard
        width={80}
        now={5_500}
        card={{
          id: "c",
          name: "read_file",
          input: { path: "a.ts" },
          status: "running",
          startedAt: 1000,
        }}
      />,
    );
    expect(plain(lastFrame())).toContain("read_file a.ts ◌ running 4.5s");
  });

  it("marks blocked calls and shows the reason", () => {
    const { lastFrame } = render(
      <ToolCard
        width={80}
        card={{
          id: "c",
          name: "shell",
          input: { command: "rm -rf /" },
          status: "blocked",
          startedAt: 0,
          durationMs: 3,
          content: "Blocked by hook guard.sh: destructive command",
        }}
      />,
    );
    const screen = plain(lastFrame());
    expect(screen).toContain("⊘ blocked");
    expect(screen).toContain("destructive command");
  });

  it("fits long commands into 80 columns", () => {
    const { lastFrame } = render(
      <ToolCard
        width={80}
        card={{
          id: "c",
          name: "shell",
          input: { command: `echo ${"x".repeat(300)}` },
          status: "ok",
          startedAt: 0,
          durationMs: 1,
          content: "y".repeat(500),
        }}
      />,
    );
    for (const line of plain(lastFrame()).split("\n"))
      expect([...line].length).toBeLessThanOrEqual(80);
    expect(plain(lastFrame())).toContain("✓ ok");
  });

  it("drops escape sequences from tool output and shows a stray control character", () => {
    const { lastFrame } = render(
      <ToolCard
        width={80}
        card={{
          id: "c",
          name: "shell",
          input: { command: "evil\x1b[2J" },
          status: "ok",
          startedAt: 0,
          durationMs: 1,
          content:
            "\x1b[2J\x1b[Hclean\x07 \x1b]0;title\x07text \x1b[35mmagenta\x1b[0m\ncopying 10%\rcopying 100%",
        }}
      />,
    );
    const raw = lastFrame() ?? "";
    expect(raw).not.toContain("\x1b[2J");
    expect(raw).not.toContain("\x1b]0;");
    expect(raw).not.toContain("\x07");
    // Colours from tool output are dropped (the card never uses magenta itself).
    expect(raw).not.toContain("\x1b[35m");
    // A bell outside any sequence is shown, not rung (src/base/sanitize.ts).
    expect(plain(raw)).toContain("clean\\x07 text magenta");
    // A progress line rewritten with CR shows its final state, as a terminal would.
    expect(plain(raw)).toContain("copying 100%");
    expect(plain(raw)).not.toContain("10%copying");
  });
});

describe("ToolCard attachments", () => {
  it("shows a PreToolUse row above the result and a PostToolUse row below it", () => {
    const { lastFrame } = render(
      <ToolCard
        width={80}
        card={{
          id: "c",
          name: "shell",
          input: { command: "make" },
          status: "ok",
          startedAt: 0,
          durationMs: 20,
          content: "built ok",
          attached: [
            { kind: "hook", run: hookRun({ event: "PreToolUse", stdout: "checked" }) },
            {
              kind: "hook",
              run: hookRun({ event: "PostToolUse", outcome: "warn", stderr: "lint" }),
            },
            { kind: "notice", level: "info", text: "note \x1b[31mfrom\x1b[0m a hook" },
          ],
        }}
      />,
    );
    const lines = plain(lastFrame()).split("\n");
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at("shell make")).toBe(0);
    expect(at("hook PreToolUse")).toBeGreaterThan(at("shell make"));
    expect(at("⎿ built ok")).toBeGreaterThan(at("hook PreToolUse"));
    expect(at("hook PostToolUse")).toBeGreaterThan(at("⎿ built ok"));
    expect(at("note from a hook")).toBeGreaterThan(at("hook PostToolUse"));
  });

  it("keeps a hook's notice next to its row", () => {
    const { lastFrame } = render(
      <ToolCard
        width={80}
        card={{
          id: "c",
          name: "write_file",
          input: { path: "a.ts" },
          status: "ok",
          startedAt: 0,
          durationMs: 3,
          content: "wrote a.ts",
          attached: [
            { kind: "hook", run: hookRun({ event: "PreToolUse", stdout: "{}" }) },
            { kind: "notice", level: "info", text: "from the pre hook" },
          ],
        }}
      />,
    );
    const lines = plain(lastFrame()).split("\n");
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at("from the pre hook")).toBeLessThan(at("⎿ wrote a.ts"));
  });

  it("says a running call awaits approval instead of ticking", () => {
    const { lastFrame } = render(
      <ToolCard
        width={80}
        now={9_000}
        awaitingApproval
        card={{
          id: "c",
          name: "write_file",
          input: { path: "a.ts" },
          status: "running",
          startedAt: 0,
        }}
      />,
    );
    const screen = plain(lastFrame());
    expect(screen).toContain("write_file a.ts ? awaiting approval");
    expect(screen).not.toContain("9.0s");
  });
});

describe("UserPrompt", () => {
  it("shows the first lines of a long prompt and how many more were sent", () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    const screen = plain(render(<UserPrompt text={text} width={80} />).lastFrame());
    expect(screen).toContain("❯ line 1");
    expect(screen).toContain("line 8");
    expect(screen).not.toContain("line 9");
    expect(screen).toContain("… 22 more lines sent");
  });
});

describe("HookRow", () => {
  it("describes JSON output instead of printing it", () => {
    const { lastFrame } = render(
      <HookRow
        width={80}
        run={hookRun({
          stdout: JSON.stringify({
            systemMessage: "shown elsewhere",
            hookSpecificOutput: {
              hookEventName: "PreToolUse",
              permissionDecision: "allow",
              permissionDecisionReason: "read-only",
              additionalContext: "use pnpm",
            },
          }),
        })}
      />,
    );
    const screen = plain(lastFrame());
    expect(screen).toContain("decision: allow (read-only)");
    expect(screen).toContain("context for the model: use pnpm");
    expect(screen).not.toContain("{");
    expect(screen).not.toContain("shown elsewhere");
  });

  it("shows event, command, outcome, duration and the block reason", () => {
    const { lastFrame } = render(
      <HookRow
        width={80}
        run={hookRun({
          outcome: "block",
          exitCode: 2,
          stderr: "no force pushes",
          message: "no force pushes",
          durationMs: 12,
        })}
      />,
    );
    const screen = plain(lastFrame());
    expect(screen).toContain("hook PreToolUse ./scripts/guard.sh blocked 12ms");
    expect(screen).toContain("reason: no force pushes");
  });

  it("shows a warning's text and a timeout", () => {
    const warn = render(
      <HookRow width={80} run={hookRun({ outcome: "warn", stderr: "lint failed", exitCode: 1 })} />,
    );
    expect(plain(warn.lastFrame())).toContain("warning");
    expect(plain(warn.lastFrame())).toContain("lint failed");
    const timeout = render(
      <HookRow width={80} run={hookRun({ outcome: "timeout", durationMs: 60_000 })} />,
    );
    expect(plain(timeout.lastFrame())).toContain("timed out 1m00s");
  });

  it("shows a passing hook's output", () => {
    const { lastFrame } = render(
      <HookRow width={80} run={hookRun({ event: "SessionStart", stdout: "branch: main\n" })} />,
    );
    expect(plain(lastFrame())).toContain("branch: main");
  });

  it("shortens long command paths and escapes control characters", () => {
    const { lastFrame } = render(
      <HookRow
        width={80}
        home="/home/u"
        run={hookRun({
          command: "/home/u/projects/deep/nested/dir/hooks/check.sh --flag",
          outcome: "warn",
          stderr: "\x1b[35mmagenta\x1b[0m\x1b[2K warning\tdone 1/2\rdone 2/2",
        })}
      />,
    );
    const raw = lastFrame() ?? "";
    expect(plain(raw)).toContain("…/hooks/check.sh --flag");
    expect(raw).not.toContain("\x1b[2K");
    expect(raw).not.toContain("\x1b[35m");
    expect(plain(raw)).toContain("done 2/2");
    expect(plain(raw)).not.toContain("done 1/2");
  });
});

describe("StatusLine", () => {
  it("shows model, mode, both cache ratios and the cost", () => {
    const { lastFrame } = render(
      <StatusLine
        width={100}
        model="deepseek-v4-flash"
        mode="default"
        turnHitRatio={0.934}
        sessionHitRatio={0.5}
        sessionCostUsd={0.0123}
      />,
    );
    expect(plain(lastFrame())).toContain(
      "deepseek-v4-flash · default · cache turn 93% session 50% · $0.01",
    );
  });

  it("shows a dash before any request and shrinks at narrow widths", () => {
    const { lastFrame } = render(
      <StatusLine
        width={50}
        model="deepseek-v4-flash"
        mode="acceptEdits"
        turnHitRatio={null}
        sessionHitRatio={null}
        sessionCostUsd={0}
      />,
    );
    const screen = plain(lastFrame());
    expect(screen).toContain("cache –/–");
    expect(screen.split("\n")[0]?.length).toBeLessThanOrEqual(50);
  });

  it("puts a note that does not fit beside the status on its own line", () => {
    const { lastFrame } = render(
      <StatusLine
        width={80}
        model="deepseek-v4-flash"
        mode="default"
        turnHitRatio={0.94}
        sessionHitRatio={0.94}
        sessionCostUsd={0.0001}
        note="hooks changed on disk: /hooks reload"
      />,
    );
    const lines = plain(lastFrame()).split("\n");
    expect(lines[0]?.trim()).toBe("hooks changed on disk: /hooks reload");
    expect(lines[1]).toContain("cache turn 94% session 94% · $0.0001");
  });

  it.each([
    [50, "default · cache 95%/95% · $0.0012"],
    [30, "cache 95%/95% · $0.0012"],
    [22, "95%/95% · $0.0012"],
  ])("keeps the ratios and the cost at %i columns", (width, expected) => {
    const { lastFrame } = render(
      <StatusLine
        width={width}
        model="deepseek-v4-flash"
        mode="default"
        turnHitRatio={0.95}
        sessionHitRatio={0.95}
        sessionCostUsd={0.0012}
      />,
    );
    const line = plain(lastFrame()).split("\n")[0] ?? "";
    expect(line.trimEnd()).toBe(expected);
  });
});

describe("Reasoning", () => {
  it("shows only the last rows of live expanded reasoning", () => {
    const text = Array.from({ length: 30 }, (_, i) => `thought ${i + 1}`).join("\n");
    const screen = plain(render(<Reasoning text={text} expanded live width={80} />).lastFrame());
    expect(screen).toContain("thought 30");
    expect(screen).toContain("thought 25");
    expect(screen).not.toContain("thought 24");
  });

  const text = "Let me look at the file first.\nThen edit it.";
  it("is one collapsed line by default", () => {
    const { lastFrame } = render(<Reasoning text={text} expanded={false} live />);
    const screen = plain(lastFrame());
    expect(screen).toContain(`thinking… ${text.length} chars`);
    expect(screen).not.toContain("Then edit it");
  });

  it("shows the whole text when expanded", () => {
    const { lastFrame } = render(<Reasoning text={text} expanded />);
    expect(plain(lastFrame())).toContain("Then edit it.");
  });
});

describe("AppFrame", () => {
  // A frame that gets shorter leaves its bottom rows blank on a full screen (Ink erases the old
  // frame and writes the shorter one where it began): when a turn ends the status line would
  // rise off the bottom (test/e2e/tui-approval.test.ts, "a tall question closes on a full
  // screen", failed that way whenever the streaming frame had been painted, i.e. under load).
  const frame = (over: { taskStartedAt?: number | null; opening?: AppFrameProps["opening"] }) =>
    render(
      <AppFrame
        t={initialTranscript()}
        width={80}
        rows={24}
        staticKey={0}
        home={undefined}
        projectDir="/tmp/p"
        status={{ customStatus: null, model: "m", mode: "default", hooksChanged: false }}
        ended={false}
        exiting={false}
        questions={{
          pending: null,
          pendingArmed: false,
          trust: null,
          trustArmed: false,
          onTrustAnswer: () => {},
        }}
        taskStartedAt={over.taskStartedAt ?? null}
        opening={over.opening ?? null}
        queued={[]}
        picker={null}
        prompt={{ editor: emptyEditor(), onChange: () => {}, onSubmit: () => {} }}
        hint={null}
      />,
    ).lastFrame();
  const height = (f: string | undefined) => plain(f).split("\n").length;

  it("is as tall while a task runs (spinner) as when it has ended", () => {
    const busy = frame({ taskStartedAt: Date.now() });
    expect(plain(busy)).toContain("esc to interrupt");
    const idle = frame({});
    expect(plain(idle)).toContain("ask Keel");
    expect(height(idle), `${plain(busy)}\n---\n${plain(idle)}`).toBe(height(busy));
  });

  it("is as tall while the session opens (spinner) as once it is open", () => {
    const opening = frame({ opening: { label: "starting MCP server x", since: Date.now() } });
    expect(plain(opening)).toContain("starting MCP server x");
    expect(height(frame({}))).toBe(height(opening));
  });
});
