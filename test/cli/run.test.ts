/** `keel run`: output formats, permissions headless, configuration errors. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest, writeSettings } from "../agent/harness.js";

const newWorld = worldPerTest();

const writeScript = () =>
  script(
    reply().tool("write_file", { path: "out.txt", content: "hello" }),
    reply().text("Wrote it."),
  );

describe("keel run output", () => {
  it("json prints exactly one object with the documented keys", async () => {
    const world = await newWorld(
      script(reply().tool("list_dir", { path: "." }), reply().text("The answer is 42.")),
    );
    const r = await keel(world, ["run", "what is it?", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0] ?? "");
    expect(Object.keys(out).sort()).toEqual(
      [
        "cacheHitRatio",
        "costUsd",
        "error",
        "hookRuns",
        "isError",
        "result",
        "sessionId",
        "stopReason",
        "toolCalls",
        "turns",
        "usage",
        "warnings",
      ].sort(),
    );
    expect(out.result).toBe("The answer is 42.");
    expect(out).toMatchObject({ isError: false, stopReason: "end", error: null });
    expect(out.turns).toBe(2);
    expect(out.toolCalls).toEqual([{ name: "list_dir", input: { path: "." }, status: "ok" }]);
    expect(out.warnings).toEqual([]);
    const sim = world.sim.requests;
    expect(out.usage).toEqual({
      promptTokens: sim.reduce((n, q) => n + q.promptTokens, 0),
      cacheHitTokens: sim.reduce((n, q) => n + q.hitTokens, 0),
      cacheMissTokens: sim.reduce((n, q) => n + q.missTokens, 0),
      completionTokens: sim.reduce((n, q) => n + q.completionTokens, 0),
    });
    expect(out.costUsd).toBeGreaterThan(0);
    expect(out.cacheHitRatio).toBeCloseTo(out.usage.cacheHitTokens / out.usage.promptTokens, 10);
    expect(out.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("text streams the answer to stdout", async () => {
    const world = await newWorld(script(reply().text("Hello from the model.")));
    const r = await keel(world, ["run", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Hello from the model.\n");
  });

  it("stream-json prints one JSON line per event, ending with the result", async () => {
    const world = await newWorld(
      script(reply().tool("list_dir", { path: "." }), reply().text("done")),
    );
    const r = await keel(world, ["run", "go", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("system");
    expect(types[1]).toBe("turn_start");
    expect(types).toContain("request_start");
    expect(types).toContain("tool_call");
    expect(types).toContain("tool_result");
    expect(types).toContain("usage");
    expect(types).toContain("turn_end");
    expect(events.at(-1)).toMatchObject({ type: "result", result: "done" });
  });

  it("stream-json says the session first, and each request's own cost as requestCostUsd", async () => {
    const world = await newWorld(
      script(reply().tool("list_dir", { path: "." }), reply().text("done")),
    );
    const r = await keel(world, ["run", "go", "--output-format", "stream-json"]);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const result = events.at(-1);
    expect(events[0]).toEqual({
      type: "system",
      subtype: "init",
      sessionId: result.sessionId,
      resumed: false,
      model: "deepseek-v4-flash",
      cwd: world.project,
      keelVersion: expect.any(String),
    });
    const usage = events.filter((e) => e.type === "usage");
    expect(usage).toHaveLength(2);
    // Per request: the two add up to the run's cost, and the last running total is that cost.
    const [first, second] = usage;
    expect(first.requestCostUsd).toBe(first.turnCostUsd);
    expect(first.requestCostUsd + second.requestCostUsd).toBeCloseTo(result.costUsd, 12);
    expect(second.costUsd).toBeCloseTo(result.costUsd, 12);
  });

  it("--continue with no session says so on stderr and starts one (exit 0)", async () => {
    const world = await newWorld(script(reply().text("first"), reply().text("second")));
    const r = await keel(world, ["run", "hi", "--continue", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`keel: no session to continue in ${world.project}; starting a new one\n`);
    expect(JSON.parse(r.stdout.split("\n")[0] ?? "")).toMatchObject({ resumed: false });
    const again = await keel(world, [
      "run",
      "more",
      "--continue",
      "--output-format",
      "stream-json",
    ]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    const init = JSON.parse(again.stdout.split("\n")[0] ?? "");
    expect(init).toMatchObject({ resumed: true });
    expect(init.sessionId).toBe(JSON.parse(r.stdout.split("\n")[0] ?? "").sessionId);
  });

  it("--continue when the only session cannot be read says so once and starts one", async () => {
    const world = await newWorld(script(reply().text("first"), reply().text("second")));
    expect((await keel(world, ["run", "hi"])).code).toBe(0);
    const { listSessions } = await import("../../src/session/index.js");
    const [only] = listSessions({ keelHome: world.home, projectDir: world.project });
    expect(only).toBeDefined();
    writeFileSync(only?.path ?? "", "not a session\n");
    const r = await keel(world, ["run", "more", "--continue", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const warned = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "notice");
    expect(warned.map((e) => e.text)).toEqual([
      `${only?.path} is not a Keel session (no session line at the top); starting a new session instead`,
    ]);
    expect(r.stderr).not.toContain("no session to continue");
  });

  it("fails with one line and exit 1 without an API key", async () => {
    const world = await newWorld(script(reply().text("x")));
    world.env.DEEPSEEK_API_KEY = undefined;
    const r = await keel(world, ["run", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/API key/);
    expect(world.sim.requests).toHaveLength(0);
  });

  it("fails with exit 1 and the reason when the model endpoint errors", async () => {
    const world = await newWorld(script(reply().error(401, { message: "Authentication Fails" })));
    const r = await keel(world, ["run", "hi", "--output-format", "json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^keel: .*Authentication Fails/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ isError: true, stopReason: "error" });
    expect(`keel: ${out.error}\n`).toBe(r.stderr);
  });

  it("--max-turns stops a tool loop", async () => {
    const world = await newWorld(
      script(
        reply().tool("list_dir", { path: "." }),
        reply().tool("glob", { pattern: "*" }),
        reply().tool("list_dir", { path: ".." }),
        reply().text("done"),
      ),
    );
    const r = await keel(world, ["run", "go", "--max-turns", "2", "--output-format", "json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/2 model requests/);
    expect(world.sim.requests).toHaveLength(2);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ result: "", isError: true, stopReason: "max_turns" });
    expect(out.error).toMatch(/^Stopped after 2 model requests/);
  });

  it("a timed-out shell call says so on stderr, not only its first output line", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "echo line1; echo line2; sleep 5", timeout_ms: 300 }),
        reply().text("ok"),
      ),
    );
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "keel: shell error: timed out after 300 ms; the command and its children were killed (output: line1)\n",
    );
  });
});

describe("keel run permissions (headless)", () => {
  it("refuses a write without --yes, with a clear tool error", async () => {
    const world = await newWorld(writeScript());
    const r = await keel(world, ["run", "write", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("blocked");
    expect(existsSync(join(world.project, "out.txt"))).toBe(false);
    const toolMsg = world.sim.requests[1]?.messages.at(-1)?.content ?? "";
    expect(toolMsg).toMatch(/Permission denied.*headless/);
  });

  it("allows it with --yes", async () => {
    const world = await newWorld(writeScript());
    const r = await keel(world, ["run", "write", "--yes", "--output-format", "json"]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("ok");
    expect(readFileSync(join(world.project, "out.txt"), "utf8")).toBe("hello");
  });

  it("allows it when a PermissionRequest hook allows, and the hook sees the call", async () => {
    const world = await newWorld(writeScript());
    const log = join(world.root, "perm.log");
    const hook = hookScript(
      world,
      "perm.sh",
      `cat > "${log}"\necho '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"allow"}}'`,
    );
    writeSettings(world, { PermissionRequest: [commandHook(hook, "write_file")] });
    const r = await keel(world, ["run", "write", "--output-format", "json"]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("ok");
    expect(readFileSync(join(world.project, "out.txt"), "utf8")).toBe("hello");
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({
      hook_event_name: "PermissionRequest",
      tool_name: "write_file",
      tool_input: { path: "out.txt", content: "hello" },
    });
  });

  it("a PermissionRequest hook deny refuses even with --yes", async () => {
    const world = await newWorld(writeScript());
    const hook = hookScript(
      world,
      "deny.sh",
      "cat >/dev/null\necho 'no writes on Fridays' >&2\nexit 2",
    );
    writeSettings(world, { PermissionRequest: [commandHook(hook)] });
    const r = await keel(world, ["run", "write", "--yes", "--output-format", "json"]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("blocked");
    expect(world.sim.requests[1]?.messages.at(-1)?.content).toContain("no writes on Fridays");
  });

  it("runs read-only shell commands without asking, and asks for others", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "ls" }).tool("shell", { command: "touch made.txt" }),
        reply().text("ok"),
      ),
    );
    const r = await keel(world, ["run", "go", "--output-format", "json"]);
    const calls = JSON.parse(r.stdout).toolCalls;
    expect(calls.map((c: { status: string }) => c.status)).toEqual(["ok", "blocked"]);
    expect(existsSync(join(world.project, "made.txt"))).toBe(false);
  });

  it("a refusal's stderr line keeps how to allow the call, even for a long command", async () => {
    const long = `touch ${"deep/".repeat(60)}made.txt`;
    const world = await newWorld(
      script(reply().tool("shell", { command: long }), reply().text("ok")),
    );
    const r = await keel(world, ["run", "go"]);
    const line = r.stderr.split("\n").find((l) => l.startsWith("keel: shell blocked:")) ?? "";
    expect(line).toMatch(/^keel: shell blocked: Permission denied: shell touch deep\/deep/);
    expect(line).toMatch(
      /The user can re-run with --yes, switch the permission mode, or allow it with a PermissionRequest hook\.\)$/,
    );
    // Said whole (issue 29): the command is not cut in the middle of its path.
    expect(line).toContain(long);
    expect(line.length).toBeLessThan(2100);
  });

  it("acceptEdits allows writes but still asks for shell", async () => {
    const world = await newWorld(
      script(
        reply()
          .tool("write_file", { path: "w.txt", content: "w" })
          .tool("shell", { command: "touch made.txt" }),
        reply().text("ok"),
      ),
    );
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    const calls = JSON.parse(r.stdout).toolCalls;
    expect(calls.map((c: { status: string }) => c.status)).toEqual(["ok", "blocked"]);
  });

  it("plan mode refuses writes even with --yes, and says why", async () => {
    const world = await newWorld(writeScript());
    const r = await keel(world, [
      "run",
      "write",
      "--mode",
      "plan",
      "--yes",
      "--output-format",
      "json",
    ]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("blocked");
    expect(world.sim.requests[1]?.messages.at(-1)?.content).toMatch(/plan mode/);
    expect(existsSync(join(world.project, "out.txt"))).toBe(false);
  });

  it("rejects an unknown mode with one line", async () => {
    const world = await newWorld(script(reply().text("x")));
    const r = await keel(world, ["run", "x", "--mode", "yolo"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--mode/);
  });
});

describe("keel stats after a run against the simulator", () => {
  it("says the requests went to keel sim (its fingerprint), not to a paid endpoint", async () => {
    const world = await newWorld(script(reply().text("Hello from the model.")));
    expect((await keel(world, ["run", "hi"])).code).toBe(0);
    const stats = await keel(world, ["stats"]);
    expect(stats.code).toBe(0);
    expect(stats.stdout).toContain("All these requests went to Keel's simulator (keel sim)");
    const json = await keel(world, ["stats", "--json"]);
    expect(JSON.parse(json.stdout).simulatedRequests).toBe(1);
  });
});
