/** Without bubblewrap, Keel approves no shell command on its own, and says why once. */
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { resetSandboxStatus } from "../../src/tools/sandbox.js";
import { keel, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

describe("no sandbox available", () => {
  it("read-only commands ask (refused headless), with one notice naming the package", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "ls" }),
        reply().tool("shell", { command: "git status" }),
        reply().text("ok"),
      ),
    );
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    resetSandboxStatus();
    try {
      const r = await keel(world, ["run", "go", "--output-format", "stream-json"]);
      const events = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      const notices = events.filter((e) => e.type === "notice" && /bubblewrap/.test(e.text));
      expect(notices).toHaveLength(1);
      const results = events.filter((e) => e.type === "tool_result");
      expect(results.map((e) => e.status)).toEqual(["blocked", "blocked"]);
      expect(results[0].content).toMatch(/OS sandbox is not available/);
    } finally {
      process.env.PATH = path;
      resetSandboxStatus();
    }
  });
});
