/**
 * The native spawner (native/keel-spawn.c via src/hooks/fast-spawn.ts) against
 * child_process.spawn: the same probes through runProcess both ways must give the same result,
 * so a hook cannot tell which one started it.
 */
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fastSpawn, nativeSpawnAvailable } from "../../src/hooks/fast-spawn.js";
import { type ProcessSpec, runProcess } from "../../src/hooks/process.js";
import { makeWorld } from "./helpers.js";

const hasCompiler = spawnSync("cc", ["--version"]).status === 0;
const nativeSpawnLoaded = nativeSpawnAvailable();

describe("the native spawner", () => {
  it.runIf(process.platform === "linux" && hasCompiler)(
    "is built and loaded where a C compiler is (npm run build)",
    () => {
      expect(nativeSpawnLoaded).toBe(true);
    },
  );

  it.runIf(nativeSpawnLoaded)("starts a process itself (not through child_process)", async () => {
    const w = makeWorld();
    try {
      const child = fastSpawn("/bin/sh", ["-c", "echo $$"], {
        cwd: w.project,
        env: { PATH: "/usr/bin:/bin" },
        stdin: "",
      });
      expect(child).not.toBeNull();
      let out = "";
      child?.stdout.on("data", (c: Buffer) => {
        out += c;
      });
      const events: string[] = [];
      child?.on("exit", () => events.push("exit"));
      child?.on("close", () => events.push("close"));
      const [code] = await new Promise<[number | null, string | null]>((r) =>
        child?.on("close", (c, s) => r([c, s])),
      );
      expect(code).toBe(0);
      expect(out.trim()).toBe(String(child?.pid));
      // As a ChildProcess: one exit, then one close.
      await new Promise((r) => setTimeout(r, 50));
      expect(events).toEqual(["exit", "close"]);
    } finally {
      w.cleanup();
    }
  });

  it.runIf(nativeSpawnLoaded)(
    "emits exit and close once each, however the exit and the pipes' end interleave",
    async () => {
      const w = makeWorld();
      try {
        const runs = Array.from({ length: 40 }, async () => {
          const child = fastSpawn("/bin/sh", ["-c", "exit 0"], {
            cwd: w.project,
            env: {},
            stdin: "",
          });
          const events: string[] = [];
          child?.on("exit", () => events.push("exit"));
          child?.on("close", () => events.push("close"));
          await new Promise((r) => child?.once("close", r));
          await new Promise((r) => setTimeout(r, 20));
          return events.join(",");
        });
        for (const events of await Promise.all(runs)) expect(events).toBe("exit,close");
      } finally {
        w.cleanup();
      }
    },
  );

  it("declines what it does not do the way child_process does (PATH lookup, NUL)", () => {
    const opts = { cwd: "/", env: {}, stdin: "" };
    expect(fastSpawn("sh", ["-c", "true"], opts)).toBeNull();
    expect(fastSpawn("/bin/sh", ["-c", "true\0x"], opts)).toBeNull();
  });
});

/** Probes whose results must not depend on how the process was started. */
const PROBES: Array<[string, Partial<ProcessSpec>]> = [
  ["cwd, env and stdin", { command: 'pwd; echo "$FOO"; cat', stdin: '{"a":1}' }],
  // More than a pipe holds: the rest goes in as the hook reads.
  ["a payload larger than the pipe", { command: "wc -c", stdin: "x".repeat(300_000) }],
  ["a payload the hook never reads", { command: "exit 0", stdin: "y".repeat(300_000) }],
  ["a hook that reads part of its payload", { command: "head -c 5", stdin: "z".repeat(300_000) }],
  ["exit code", { command: "echo out; echo err >&2; exit 7" }],
  ["killed by a signal", { command: "kill -TERM $$; sleep 5" }],
  // No descriptor of Keel's leaks in: only 0, 1, 2 (and the one ls opens to list them).
  ["open descriptors", { command: "ls /proc/self/fd | sort -n | tr '\\n' ' '" }],
  // Its own session and process group (detached), so a group kill reaches its children.
  ["own session", { command: "awk '{ print ($5 == $1) \" \" ($6 == $1) }' /proc/$$/stat" }],
  // Node ignores SIGPIPE; a hook must not inherit that (nor a blocked signal).
  ["signal dispositions", { command: "grep -E '^Sig(Ign|Blk)' /proc/$$/status" }],
  ["SIGPIPE kills a writer", { command: "yes | head -c 3; echo; kill -PIPE $$; echo alive" }],
  [
    "output past the cap",
    { command: "head -c 300000 /dev/zero | tr '\\0' x", maxOutputBytes: 1000 },
  ],
  ["a missing working directory", { command: "true", cwd: "/nonexistent/dir" }],
  ["the exec form", { args: ["/bin/echo", "$HOME", "a;b"] }],
  ["a missing program", { args: ["/nonexistent/program"] }],
];

describe.runIf(nativeSpawnLoaded)(
  "a hook cannot tell the native spawner from child_process",
  () => {
    for (const [name, probe] of PROBES) {
      it(name, async () => {
        const w = makeWorld();
        try {
          const spec: ProcessSpec = {
            cwd: w.project,
            env: { ...process.env, FOO: "bar" },
            stdin: "",
            timeoutMs: 10_000,
            ...probe,
          };
          const strip = ({ durationMs: _, ...rest }: Awaited<ReturnType<typeof runProcess>>) =>
            rest;
          const native = strip(await runProcess(spec));
          // Passing child_process.spawn as the seam turns the native spawner off.
          const node = strip(await runProcess({ ...spec, spawn }));
          expect(native).toEqual(node);
        } finally {
          w.cleanup();
        }
      });
    }
  },
);
