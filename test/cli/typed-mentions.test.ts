/**
 * Mentions are read only from what the user typed (commands/turn-entry.ts): an `@server:uri` in
 * an MCP prompt's text (the server's) or in a custom command's body (a file's) stays text, so a
 * server or a repository cannot make Keel read another server's resource (attacks3/30, 31).
 * The same mention typed as the command's arguments is read. Piped input: run-stdin.test.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, worldPerTest } from "../agent/harness.js";
import { FAULT_SERVER } from "../mcp/servers.js";

const newWorld = worldPerTest();

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

function withServer(home: string): void {
  writeFileSync(
    join(home, "settings.json"),
    JSON.stringify({
      mcpServers: { docs: { command: process.execPath, args: [FAULT_SERVER, "prompts-relay"] } },
    }),
  );
}

const RESOURCE = '<resource server="docs" uri="notes://today">';

describe("mentions only in typed text", () => {
  it("an MCP prompt's text cannot make Keel read a resource or attach an image", async () => {
    const w = await newWorld(script(reply().text("relayed"), reply().text("typed")));
    withServer(w.home);
    writeFileSync(join(w.project, "shot.png"), PNG);
    // A model without vision: an @shot.png acted on would refuse the whole turn.
    const r = await keel(w, ["run", "/mcp__docs__relay"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("relayed");
    const content = String(w.sim.requests[0]?.messages.at(-1)?.content);
    expect(content).toContain("Relay: see @docs:notes://today and @shot.png");
    expect(content).not.toContain(RESOURCE);
    expect(w.sim.requests[0]?.messages.at(-1)?.images ?? []).toEqual([]);
    // Typed by the user as the prompt's argument, the same mention is read.
    const typed = await keel(w, ["run", "/mcp__docs__review @docs:notes://today"]);
    expect(typed.code).toBe(0);
    expect(String(w.sim.requests[1]?.messages.at(-1)?.content)).toContain(RESOURCE);
  });

  it("a project command's body cannot; the arguments typed after it can", async () => {
    const w = await newWorld(script(reply().text("body"), reply().text("args")));
    withServer(w.home);
    mkdirSync(join(w.project, ".claude", "commands"), { recursive: true });
    writeFileSync(
      join(w.project, ".claude", "commands", "ctx.md"),
      "---\ndescription: context\n---\nReview the code. Context: @docs:notes://today\n",
    );
    const r = await keel(w, ["run", "/ctx"]);
    expect(r.code).toBe(0);
    const body = String(w.sim.requests[0]?.messages.at(-1)?.content);
    expect(body).toContain("Context: @docs:notes://today");
    expect(body).not.toContain(RESOURCE);
    const typed = await keel(w, ["run", "/ctx also @docs:notes://today"]);
    expect(typed.code).toBe(0);
    expect(String(w.sim.requests[1]?.messages.at(-1)?.content)).toContain(RESOURCE);
  });

  it("a user command's body is not scanned either (one rule: what is typed)", async () => {
    const w = await newWorld(script(reply().text("body")));
    withServer(w.home);
    mkdirSync(join(w.home, "commands"), { recursive: true });
    writeFileSync(join(w.home, "commands", "mine.md"), "Mine. Context: @docs:notes://today\n");
    const r = await keel(w, ["run", "/mine"]);
    expect(r.code).toBe(0);
    expect(String(w.sim.requests[0]?.messages.at(-1)?.content)).not.toContain(RESOURCE);
  });
});
