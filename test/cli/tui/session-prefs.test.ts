/** The TUI keeps `--harvest` / `/branch` settings and the project's custom commands across agents. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { customCommandSpecs, setReasoningPrefs } from "../../../src/cli/tui/session-commands.js";
import { completeSlash } from "../../../src/cli/tui/slash.js";
import { reply, script } from "../../../src/sim/index.js";
import { collect, worldPerTest } from "../../agent/harness.js";
import { backendFor } from "./session-world.js";

const start = worldPerTest();
afterEach(() => setReasoningPrefs({}));

it("every agent the backend opens gets the reasoning settings and registers its custom commands", async () => {
  const w = await start(script(reply().text("x")));
  mkdirSync(join(w.project, ".claude", "commands"), { recursive: true });
  writeFileSync(
    join(w.project, ".claude", "commands", "deploy.md"),
    "---\ndescription: Ship it\n---\nDeploy",
  );
  // A command named like a built-in stays the built-in.
  writeFileSync(join(w.project, ".claude", "commands", "help.md"), "not this");
  setReasoningPrefs({ harvest: true, branch: 3 });
  const { backend, close } = await backendFor(w);
  try {
    expect(backend.agent().getReasoning?.()).toEqual({ harvest: true, branch: 3 });
    expect(customCommandSpecs().map((c) => c.name)).toEqual(["deploy"]);
    expect(completeSlash("/dep").map((c) => c.label)).toEqual(["/deploy"]);
    await collect(backend.agent().end("clear"));
    expect(await backend.replace({})).toEqual({ ok: true });
    expect(backend.agent().getReasoning?.()).toEqual({ harvest: true, branch: 3 });
  } finally {
    close();
  }
});
