/**
 * The TUI shows untrusted text (a model's tool names, hook commands) through the one sanitizer
 * (src/base/sanitize.ts), while the model's ordinary Markdown — any script, emoji, CJK — renders
 * as it is (issue 26).
 */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/agent/events.js";
import { renderMarkdown } from "../../../src/cli/tui/markdown.js";
import { applyEvent, initialTranscript } from "../../../src/cli/tui/transcript.js";

const NASTY = "\x1b]52;c;ZXZpbA==\x07\x9b2J\u202e\u200b";
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;

describe("untrusted text in the TUI", () => {
  it("a tool name from the model is shown escaped in its card and the status line", () => {
    const events: AgentEvent[] = [
      { type: "tool_call", id: "c1", name: `shell${NASTY}`, input: { command: "ls" } },
    ];
    const s = events.reduce((st, e) => applyEvent(st, e, 1000), initialTranscript());
    const name = s.tools[0]?.name ?? "";
    expect(name).not.toMatch(RAW);
    // The TUI drops whole escape sequences (src/cli/terminal-text.ts) and shows the rest.
    expect(name).toBe("shell\\x9b2J\\u{202e}\\u{200b}");
    expect(s.phase.kind === "busy" ? s.phase.label : "").not.toMatch(RAW);
  });

  it("the model's Markdown keeps other scripts, emoji and joiners, and shows an override", () => {
    const text = "日本語 — مرحبا — 👨\u200d👩\u200d👧 — می\u200cخواهم";
    const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
    expect(plain(renderMarkdown(text, 80)).trim()).toBe(text);
    expect(plain(renderMarkdown(`a\u202eb`, 80)).trim()).toBe("a\\u{202e}b");
  });
});
