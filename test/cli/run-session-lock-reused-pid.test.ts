/**
 * A session lock names its writer by more than a pid (src/session/lock.ts): after a reboot the
 * pid in an old lock may belong to an unrelated live process (pid 1), and `keel run --continue`
 * must take the session over instead of calling it "in use" forever; a lock written by a live
 * Keel process (same pid, same start time) is still refused. In-process `keel run -c` against the
 * simulator; the live holder is a spawned node process whose lock carries its real start time.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processStartTime } from "../../src/session/lock.js";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();
const onLinux = processStartTime(process.pid) !== undefined;

let holder: ChildProcess | undefined;
afterEach(() => {
  holder?.kill("SIGKILL");
  holder = undefined;
});

function sessionFile(w: World): string {
  const dir = join(w.home, "sessions");
  const [project] = readdirSync(dir);
  const files = readdirSync(join(dir, project ?? "")).filter(
    (f) => f.endsWith(".jsonl") && !f.endsWith(".hooks.jsonl"),
  );
  return join(dir, project ?? "", files[0] ?? "");
}

async function firstRun(): Promise<World> {
  const w = await newWorld(script(reply().text("First."), reply().text("Resumed.")));
  const r = await keel(w, ["run", "hello", "--output-format", "json"]);
  expect(r.code, r.stderr).toBe(0);
  return w;
}

const lockOf = (w: World) => `${sessionFile(w)}.lock`;

describe.skipIf(!onLinux)("a session lock naming a reused pid", () => {
  it("pid 1 with another start time (a lock from before a reboot) is stale: -c continues", async () => {
    const w = await firstRun();
    writeFileSync(
      lockOf(w),
      JSON.stringify({
        pid: 1,
        host: hostname(),
        nonce: "before-reboot",
        since: "2026-01-01T00:00:00.000Z",
        started: "1",
        boot: "00000000-0000-0000-0000-000000000000",
      }),
    );
    const r = await keel(w, ["run", "again", "--continue", "--output-format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe("Resumed.");
  });

  it("pid 1 in an old-format lock (no start time): its command line is not Keel's, -c continues", async () => {
    const w = await firstRun();
    writeFileSync(
      lockOf(w),
      JSON.stringify({ pid: 1, host: hostname(), nonce: "old", since: "2026-01-01" }),
    );
    const r = await keel(w, ["run", "again", "--continue", "--output-format", "json"]);
    expect(r.code, r.stderr).toBe(0);
  });

  it("a live process with the recorded start time is still the holder: -c is refused", async () => {
    const w = await firstRun();
    holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    const pid = holder.pid as number;
    await expect.poll(() => processStartTime(pid)).toBeDefined();
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    writeFileSync(
      lockOf(w),
      JSON.stringify({
        pid,
        host: hostname(),
        nonce: "live",
        since: "now",
        started: processStartTime(pid),
        boot,
      }),
    );
    const r = await keel(w, ["run", "again", "--continue", "--output-format", "json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`is in use by Keel process ${pid}\\b`));
    expect(readFileSync(sessionFile(w), "utf8")).not.toContain("again");
  });
});
