import { describe, expect, it } from "vitest";
import { formDefaults, tuiElicitation } from "../../../src/cli/tui/elicit-bridge.js";
import { createPermissionBridge } from "../../../src/cli/tui/permission-bridge.js";

const schema = {
  type: "object",
  properties: { name: { type: "string", default: "Ada" }, age: { type: "integer" } },
  required: ["name"],
};

describe("TUI elicitation", () => {
  it("collects the defaults and the required fields without one", () => {
    expect(formDefaults(schema)).toEqual({ content: { name: "Ada" }, missing: [] });
    expect(formDefaults({ ...schema, required: ["age"] })).toEqual({
      content: { name: "Ada" },
      missing: ["age"],
    });
  });

  it("shows the request in the permission prompt: allow accepts the defaults, deny declines", async () => {
    const bridge = createPermissionBridge();
    const shown: string[] = [];
    let answer: "allow_once" | "deny" = "allow_once";
    bridge.subscribe((p) => {
      if (!p) return;
      shown.push(p.request.summary);
      p.answer(answer);
    });
    const elicit = tuiElicitation(bridge);
    const req = {
      server: "srv",
      message: "Who are you?",
      mode: "form" as const,
      requestedSchema: schema,
    };
    const signal = new AbortController().signal;
    expect(await elicit(req, signal)).toEqual({ action: "accept", content: { name: "Ada" } });
    answer = "deny";
    expect(await elicit(req, signal)).toEqual({ action: "decline" });
    expect(shown).toEqual([
      "MCP server srv asks: Who are you?",
      "MCP server srv asks: Who are you?",
    ]);
  });
});
