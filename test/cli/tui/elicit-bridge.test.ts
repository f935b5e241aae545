import { describe, expect, it } from "vitest";
import { tuiElicitation } from "../../../src/cli/tui/elicit-bridge.js";
import {
  createPermissionBridge,
  type PendingPermission,
} from "../../../src/cli/tui/permission-bridge.js";

const schema = {
  type: "object",
  properties: { name: { type: "string", default: "Ada" }, age: { type: "integer" } },
  required: ["name"],
};
const req = {
  server: "srv",
  message: "Who are you?",
  mode: "form" as const,
  requestedSchema: schema,
};

/** A bridge whose UI does `act` with each question shown. */
function bridgeDoing(act: (p: PendingPermission) => void) {
  const bridge = createPermissionBridge();
  const shown: PendingPermission[] = [];
  bridge.subscribe((p) => {
    if (!p) return;
    shown.push(p);
    act(p);
  });
  return { elicit: tuiElicitation(bridge), shown };
}

describe("TUI elicitation through the question area", () => {
  it("shows the form's fields and sends what the form answers", async () => {
    const { elicit, shown } = bridgeDoing((p) =>
      p.form?.respond({ action: "accept", content: { name: "Grace", age: 36 } }),
    );
    const answer = await elicit(req, new AbortController().signal);
    expect(answer).toEqual({ action: "accept", content: { name: "Grace", age: 36 } });
    expect(shown[0]?.form).toMatchObject({
      server: "srv",
      message: "Who are you?",
      fields: [
        { key: "name", kind: "text", required: true, default: "Ada" },
        { key: "age", kind: "integer", required: false },
      ],
    });
    expect(shown[0]?.form?.unusable).toBeUndefined();
  });

  it("decline is decline; closed without an answer (interrupt, quit) is cancel", async () => {
    const declined = bridgeDoing((p) => p.form?.respond({ action: "decline" }));
    expect(await declined.elicit(req, new AbortController().signal)).toEqual({ action: "decline" });
    const closed = bridgeDoing((p) => p.answer("deny"));
    expect(await closed.elicit(req, new AbortController().signal)).toEqual({ action: "cancel" });
  });

  it("the server giving up (abort) cancels the shown form", async () => {
    const ac = new AbortController();
    const { elicit, shown } = bridgeDoing(() => setTimeout(() => ac.abort(), 10));
    expect(await elicit(req, ac.signal)).toEqual({ action: "cancel" });
    expect(shown).toHaveLength(1);
  });

  it("a required field of a shape a form cannot take: the form says it can only be declined", async () => {
    const { elicit, shown } = bridgeDoing((p) => p.form?.respond({ action: "decline" }));
    const nested = {
      ...req,
      requestedSchema: {
        type: "object",
        properties: { address: { type: "object" } },
        required: ["address"],
      },
    };
    expect(await elicit(nested, new AbortController().signal)).toEqual({ action: "decline" });
    expect(shown[0]?.form?.unusable).toMatch(/address.*can only be declined/);
  });

  it("URL mode shows the URL with no fields", async () => {
    const { elicit, shown } = bridgeDoing((p) => p.form?.respond({ action: "accept" }));
    const url = {
      server: "srv",
      message: "Sign in",
      mode: "url" as const,
      url: "https://example.com/auth",
    };
    expect(await elicit(url, new AbortController().signal)).toEqual({ action: "accept" });
    expect(shown[0]?.form).toMatchObject({ url: "https://example.com/auth", fields: [] });
  });
});
