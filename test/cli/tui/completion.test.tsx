import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { SlashMenu } from "../../../src/cli/tui/components/slash-menu.js";
import { completeSlash } from "../../../src/cli/tui/slash.js";
import { resumeChoices } from "../../../src/cli/tui/use-session-ids.js";

const session = (id: string, updatedAt: string, firstPrompt: string) => ({
  id,
  updatedAt,
  firstPrompt,
  messages: 4,
  model: "deepseek-v4-flash",
});

describe("/resume completion", () => {
  it("offers other sessions with their date and first prompt, never the current one", () => {
    const choices = resumeChoices(
      [
        session("aaaaaaaa-1111", "2026-11-23T09:58:12.000Z", "fix the parser\nplease"),
        session("bbbbbbbb-2222", "2026-11-22T17:03:00.000Z", "write the \x1b[31mdocs"),
      ],
      "aaaaaaaa-1111",
    );
    expect(choices).toEqual([
      { value: "bbbbbbbb", description: "2026-11-22 17:03 · write the docs" },
    ]);
    // A hook-given title (sessionTitle) stands in for the first prompt.
    const titled = resumeChoices(
      [
        {
          ...session("cccccccc-3333", "2026-11-21T08:00:00.000Z", "long prompt"),
          title: "Docs pass",
        },
      ],
      "aaaaaaaa-1111",
    );
    expect(titled[0]?.description).toBe("2026-11-21 08:00 · Docs pass");
    const items = completeSlash("/resume b", { dynamic: { resume: choices } });
    expect(items).toEqual([
      {
        value: "/resume bbbbbbbb",
        label: "bbbbbbbb",
        description: "2026-11-22 17:03 · write the docs",
        runnable: true,
      },
    ]);
  });
});

describe("SlashMenu", () => {
  it("wraps a long description under itself instead of cutting it", () => {
    const description = "list hooks, reload them, trust project hooks, per-hook stats and more";
    const { lastFrame } = render(
      <SlashMenu
        items={[{ value: "/hooks", label: "/hooks", description, runnable: true }]}
        selected={0}
        width={50}
      />,
    );
    const frame = lastFrame() ?? "";
    for (const line of frame.split("\n")) expect(line.length).toBeLessThanOrEqual(50);
    expect(frame.replace(/\s+/g, " ")).toContain(description);
  });

  it("gives a label wider than its column a row of its own, whole, at 60 and 40 columns", () => {
    const label = "/mode [default|acceptEdits|plan|bypassPermissions]";
    for (const width of [60, 40]) {
      const { lastFrame } = render(
        <SlashMenu
          items={[
            { value: "/mode", label, description: "show or switch the mode", runnable: true },
            { value: "/help", label: "/help", description: "list commands", runnable: true },
          ]}
          selected={0}
          width={width}
        />,
      );
      const frame = lastFrame() ?? "";
      for (const line of frame.split("\n")) expect(line.length).toBeLessThanOrEqual(width);
      expect(frame.replace(/\s+/g, ""), `${width} columns`).toContain(label.replace(/\s+/g, ""));
      expect(frame).toContain("show or switch the mode");
      expect(frame).toMatch(/\/help\s+list commands/);
    }
  });
});

describe("an exact command name", () => {
  it("comes before longer names it begins (/mode before /model)", () => {
    expect(completeSlash("/mode").map((c) => c.value)).toEqual(["/mode", "/model"]);
    // No exact name: prefix matches in catalogue order, then names containing it (/memory).
    expect(completeSlash("/mo").map((c) => c.value)).toEqual(["/model", "/mode", "/memory"]);
  });

  it("leaves sessions without a prompt out of /resume", () => {
    const choices = resumeChoices(
      [
        { ...session("aaaaaaaa-1", "2026-11-23T09:00:00.000Z", ""), messages: 0 },
        session("bbbbbbbb-2", "2026-11-22T09:00:00.000Z", "real work"),
      ],
      "cccccccc-3",
    );
    expect(choices.map((c) => c.value)).toEqual(["bbbbbbbb"]);
  });
});
