import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { ElicitationForm, windowAround } from "../../../src/cli/tui/components/elicitation-form.js";
import { parseForm } from "../../../src/cli/tui/elicit-form.js";
import type { ElicitationAnswer } from "../../../src/mcp/index.js";
import { KEY, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

const schema = {
  type: "object",
  properties: {
    name: { title: "Name", type: "string", description: "Your full, legal name" },
    agree: { title: "Agree", type: "boolean" },
    email: { title: "Email", type: "string", format: "email" },
    level: { title: "Level", type: "integer", minimum: 1, maximum: 100, default: 42 },
    friend: {
      title: "Friend",
      type: "string",
      enum: ["Monica", "Rachel", "Joey"],
      default: "Monica",
    },
    tools: {
      title: "Tools",
      type: "array",
      minItems: 1,
      items: {
        anyOf: [
          { const: "g", title: "Guitar" },
          { const: "p", title: "Piano" },
        ],
      },
    },
  },
  required: ["name", "tools"],
};

function renderForm(over: { unusable?: string; message?: string } = {}) {
  const answers: ElicitationAnswer[] = [];
  const form = parseForm(schema);
  const r = render(
    <ElicitationForm
      server="everything"
      message={over.message ?? "Please provide inputs for the following fields:"}
      fields={form.fields}
      {...(over.unusable ? { unusable: over.unusable } : {})}
      width={80}
      onDone={(a) => answers.push(a)}
    />,
  );
  const step = async (keys: string[], until: string) => {
    for (const k of keys) r.stdin.write(k);
    return waitForFrame(r.lastFrame, (s) => s.includes(until));
  };
  return { ...r, answers, step };
}

describe("ElicitationForm", () => {
  it("asks field by field, checks each answer, and sends what was entered", async () => {
    const f = renderForm();
    await waitForFrame(f.lastFrame, (s) => s.includes("1/6 Name (required)"));
    expect(f.lastFrame()).toContain("Your full, legal name");
    // Required: Enter alone is refused.
    await f.step([KEY.enter], "required");
    await f.step(["Ada Lovelace", KEY.enter], "2/6 Agree");
    await f.step(["y"], "3/6 Email");
    await f.step(["ada@nowhere", KEY.enter], "not an email address");
    await f.step(
      [
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
        KEY.backspace,
      ],
      "3/6 Email",
    );
    await f.step([KEY.enter], "4/6 Level");
    expect(f.lastFrame()).toContain("42 (enter keeps it)");
    await f.step(["500", KEY.enter], "at most 100");
    await f.step([KEY.backspace, KEY.backspace, KEY.backspace, "7", KEY.enter], "5/6 Friend");
    await f.step([KEY.down, KEY.enter], "6/6 Tools");
    await f.step([KEY.enter], "choose at least 1");
    await f.step([" ", KEY.down, " ", KEY.enter], "enter send");
    const screen = f.lastFrame() ?? "";
    expect(screen).toContain("Name: Ada Lovelace");
    expect(screen).toContain("Email: (not given)");
    expect(screen).toContain("Friend: Rachel");
    expect(screen).toContain("Tools: Guitar, Piano");
    f.stdin.write(KEY.enter);
    await expect
      .poll(() => f.answers)
      .toEqual([
        {
          action: "accept",
          content: {
            name: "Ada Lovelace",
            agree: true,
            level: 7,
            friend: "Rachel",
            tools: ["g", "p"],
          },
        },
      ]);
  });

  it("a choice by its number; n on the last step declines", async () => {
    const f = renderForm();
    await waitForFrame(f.lastFrame, (s) => s.includes("1/6 Name"));
    await f.step(["Grace\r"], "2/6 Agree");
    await f.step(["n"], "3/6");
    await f.step([KEY.enter], "4/6");
    await f.step([KEY.enter], "5/6");
    await f.step(["3"], "6/6");
    expect(f.answers).toEqual([]);
    await f.step([" ", KEY.enter], "enter send");
    expect(f.lastFrame()).toContain("Friend: Joey");
    f.stdin.write("n");
    await expect.poll(() => f.answers).toEqual([{ action: "decline" }]);
  });

  it("Esc cancels at any step", async () => {
    const f = renderForm();
    await f.step(["Ada", KEY.enter], "2/6");
    f.stdin.write(KEY.escape);
    await expect.poll(() => f.answers).toEqual([{ action: "cancel" }]);
  });

  it("an unusable form goes straight to the last step and only declines", async () => {
    const form = render(
      <ElicitationForm
        server="s"
        message="Where do you live?"
        fields={[]}
        unusable="it asks for address in a shape a form cannot take: it can only be declined"
        width={80}
        onDone={() => {}}
      />,
    );
    await waitForFrame(form.lastFrame, (s) => s.includes("n decline · esc cancel"));
    expect(form.lastFrame()).not.toContain("enter send");
  });

  it("URL mode: the URL is shown, Enter accepts without content", async () => {
    const answers: ElicitationAnswer[] = [];
    const r = render(
      <ElicitationForm
        server="auth"
        message="Sign in to continue"
        url="https://example.com/login"
        fields={[]}
        width={80}
        onDone={(a) => answers.push(a)}
      />,
    );
    const screen = await waitForFrame(r.lastFrame, (s) => s.includes("open the URL yourself"));
    expect(screen).toContain("https://example.com/login");
    r.stdin.write(KEY.enter);
    await expect.poll(() => answers).toEqual([{ action: "accept" }]);
  });

  it("a long question is wrapped whole, not cut at the edge", async () => {
    const message = `Before we deploy, confirm the target: ${"the production cluster in eu-west ".repeat(4)}is about to change.`;
    const f = renderForm({ message });
    const screen = await waitForFrame(f.lastFrame, (s) => s.includes("1/6"));
    const text = screen.replace(/[│╭╮╰╯─]/g, " ").replace(/\s+/g, " ");
    expect(text).toContain(message);
  });

  it("shows the server's text sanitized (no escape sequences reach the terminal)", async () => {
    const f = renderForm({ message: "hi \x1b]0;pwned\x07there \x1b[2J" });
    const screen = await waitForFrame(f.lastFrame, (s) => s.includes("1/6"));
    expect(f.lastFrame()).not.toContain("\x1b]0;");
    expect(f.lastFrame()).not.toContain("\x1b[2J");
    expect(screen).toContain("hi");
  });
});

describe("a form on a short screen", () => {
  it("shows a window of a long choice list around the cursor, and says what is left out", async () => {
    const many = parseForm({
      type: "object",
      properties: {
        n: { type: "string", enum: Array.from({ length: 12 }, (_, i) => `opt${i + 1}`) },
      },
    });
    const r = render(
      <ElicitationForm
        server="s"
        message="Pick"
        fields={many.fields}
        width={60}
        maxRows={14}
        onDone={() => {}}
      />,
    );
    const first = await waitForFrame(r.lastFrame, (s) => s.includes("1. opt1"));
    expect(first).toContain("… 8 more");
    expect(first).not.toContain("opt5");
    for (let i = 0; i < 7; i++) r.stdin.write(KEY.down);
    const moved = await waitForFrame(r.lastFrame, (s) => s.includes("❯ 8. opt8"));
    expect(moved).toMatch(/… \d+ more[\s\S]*opt8[\s\S]*… \d+ more/);
    expect(moved.split("\n").length).toBeLessThanOrEqual(14);
  });

  it("windowAround keeps the cursor inside and the size fixed", () => {
    const xs = Array.from({ length: 10 }, (_, i) => i);
    expect(windowAround(xs, 0, 4)).toEqual({ shown: [0, 1, 2, 3], start: 0, before: 0, after: 6 });
    expect(windowAround(xs, 9, 4)).toEqual({ shown: [6, 7, 8, 9], start: 6, before: 6, after: 0 });
    expect(windowAround(xs, 5, 4).shown).toContain(5);
    expect(windowAround(xs.slice(0, 3), 2, 4)).toEqual({
      shown: [0, 1, 2],
      start: 0,
      before: 0,
      after: 0,
    });
  });
});
