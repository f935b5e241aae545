import { describe, expect, it } from "vitest";
import { replayEntries } from "../../../src/cli/tui/replay.js";

const msg = (m: Record<string, unknown>) => JSON.stringify(m);
const turn = (n: number) => [
  msg({ role: "user", content: `prompt ${n}` }),
  msg({ role: "assistant", content: `answer ${n}` }),
];

describe("replayEntries", () => {
  it("shows only the latest turns and says how many are left out", () => {
    const entries = replayEntries([1, 2, 3, 4].flatMap(turn), { maxTurns: 2 });
    expect(entries).toEqual([
      { kind: "notice", level: "info", text: "… 2 earlier turn(s) not shown" },
      { kind: "user", text: "prompt 3" },
      { kind: "assistant", text: "answer 3", continued: false },
      { kind: "user", text: "prompt 4" },
      { kind: "assistant", text: "answer 4", continued: false },
    ]);
  });

  it("skips hook-only user messages, shows a compaction summary, ignores unreadable bytes", () => {
    const entries = replayEntries([
      msg({ role: "user", content: "This session was compacted. Summary:\n\nWe fixed a bug." }),
      "{not json",
      msg({ role: "assistant", content: "ok" }),
      msg({ role: "user", content: '<hook-context event="Stop">\nkeep going\n</hook-context>' }),
      msg({ role: "assistant", content: "continuing" }),
    ]);
    expect(entries).toEqual([
      { kind: "info", title: "Summary of the earlier conversation", lines: ["We fixed a bug."] },
      { kind: "assistant", text: "ok", continued: false },
      { kind: "assistant", text: "continuing", continued: false },
    ]);
  });
});
