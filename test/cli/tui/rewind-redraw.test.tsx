/**
 * `/rewind N conversation` in the running TUI (the App on a real session backend against the
 * simulator): the transcript on screen becomes the rewound conversation — the dropped turns'
 * prompts and answers are gone, the earlier ones are shown again, then what the rewind did.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, expect, it } from "vitest";
import { App } from "../../../src/cli/tui/app.js";
import { createPermissionBridge } from "../../../src/cli/tui/permission-bridge.js";
import { reply, script } from "../../../src/sim/index.js";
import { worldPerTest } from "../../agent/harness.js";
import { waitForFrame } from "./helpers.js";
import { backendFor } from "./session-world.js";

afterEach(() => cleanup());
const start = worldPerTest();

it("/rewind 2 conversation redraws the transcript without turn 2", async () => {
  const w = await start(script(reply().text("answer to alpha"), reply().text("answer to bravo")));
  const permissions = createPermissionBridge();
  const { backend, close } = await backendFor(w, permissions);
  const r = render(<App backend={backend} permissions={permissions} />);
  const screen = (check: (s: string) => boolean) => waitForFrame(r.lastFrame, check);
  try {
    await screen((s) => s.includes("ask Keel"));
    r.stdin.write("prompt alpha\r");
    await screen((s) => s.includes("answer to alpha"));
    r.stdin.write("prompt bravo\r");
    await screen((s) => s.includes("answer to bravo"));
    r.stdin.write("/rewind 2 conversation\r");
    const s = await screen((s) => s.includes("Rewound to before turn 2"));
    expect(s).not.toContain("prompt bravo");
    expect(s).not.toContain("answer to bravo");
    expect(s).toContain("❯ prompt alpha");
    expect(s).toContain("answer to alpha");
    expect(s).toContain("rewound to before turn 2 · 2 messages");
    expect(s.indexOf("answer to alpha")).toBeLessThan(s.indexOf("Rewound to before turn 2"));
  } finally {
    r.unmount();
    close();
  }
});
