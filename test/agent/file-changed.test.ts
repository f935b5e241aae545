/**
 * FileChanged: files named by FileChanged matchers or by SessionStart's `watchPaths` are
 * watched; adding, changing and removing one fires FileChanged with the file and the kind of
 * change, and the hook's output reaches the user (never the model).
 */
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { type FileEvent, FileWatcher } from "../../src/agent/file-changed.js";
import { reply, script } from "../../src/sim/index.js";
import {
  agentFor,
  collect,
  commandHook,
  hookScript,
  worldPerTest,
  writeSettings,
} from "./harness.js";

const newWorld = worldPerTest();

/** Resolves with the next event the watcher reports. */
function nextEvent(events: Array<[string, FileEvent]>, waiters: Array<() => void>) {
  return new Promise<[string, FileEvent]>((done) => {
    const take = () => {
      const e = events.shift();
      if (e) done(e);
      else waiters.push(take);
    };
    take();
  });
}

describe("FileWatcher", () => {
  it("reports add, change and unlink of a watched file, and nothing for its neighbours", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keel-watch-"));
    const events: Array<[string, FileEvent]> = [];
    const waiters: Array<() => void> = [];
    const watcher = new FileWatcher((file, event) => {
      events.push([file, event]);
      waiters.shift()?.();
    }, 20);
    try {
      const file = join(dir, ".envrc");
      watcher.add([file, "relative/ignored"]);
      expect(watcher.watched()).toEqual([file]);
      writeFileSync(join(dir, "other.txt"), "not watched");
      writeFileSync(file, "export A=1\n");
      expect(await nextEvent(events, waiters)).toEqual([file, "add"]);
      writeFileSync(file, "export A=2\n");
      expect(await nextEvent(events, waiters)).toEqual([file, "change"]);
      unlinkSync(file);
      expect(await nextEvent(events, waiters)).toEqual([file, "unlink"]);
      expect(events).toEqual([]);
    } finally {
      watcher.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("FileChanged hooks", () => {
  it("fire for matcher-named files and SessionStart watchPaths; output goes to the user", async () => {
    const w = await newWorld(script(reply().text("one"), reply().text("two")));
    const log = join(w.root, "file-changed.log");
    const extra = join(w.root, "extra.json");
    const onChange = hookScript(
      w,
      "changed.sh",
      `cat >> "${log}"; echo >> "${log}"; echo '{"systemMessage":"saw a change"}'`,
    );
    const onStart = hookScript(
      w,
      "start.sh",
      `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","watchPaths":["${extra}"]}}'`,
    );
    writeSettings(w, {
      SessionStart: [commandHook(onStart)],
      FileChanged: [commandHook(onChange, ".envrc|extra.json")],
    });
    const agent = await agentFor(w);
    await collect(agent.runTurn("hi"));
    const fired = async () => {
      // The hook appends one JSON line per firing; poll the file the hook writes until it has n.
      const lines = () =>
        (() => {
          try {
            return readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
          } catch {
            return [];
          }
        })();
      const before = lines().length;
      await expect.poll(() => lines().length, { timeout: 5000, interval: 20 }).toBe(before + 1);
      return JSON.parse(lines().at(-1) ?? "{}");
    };

    writeFileSync(join(w.project, ".envrc"), "export A=1\n");
    expect(await fired()).toMatchObject({
      hook_event_name: "FileChanged",
      file_path: join(w.project, ".envrc"),
      event: "add",
    });
    writeFileSync(extra, "{}");
    expect(await fired()).toMatchObject({ file_path: extra, event: "add" });

    const events: AgentEvent[] = await collect(agent.runTurn("again"));
    expect(events).toContainEqual({ type: "notice", level: "info", text: "saw a change" });
    // Nothing of it reached the model.
    expect(JSON.stringify(w.sim.requests.at(-1)?.messages)).not.toContain("saw a change");
    await collect(agent.end());
  });
});
