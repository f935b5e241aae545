/**
 * `keel run --yes` where bubblewrap is missing: every call still runs (approved by --yes), but
 * outside the OS sandbox. One notice says so, rather than claiming approval is needed (issue 29).
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { resetSandboxStatus } from "../../src/tools/sandbox.js";
import { keel, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();
let savedPath: string | undefined;
let bin: string;

beforeEach(() => {
  // A PATH with what the commands need and no bwrap.
  bin = mkdtempSync(join(tmpdir(), "keel-no-bwrap-"));
  for (const tool of ["sh", "ls", "touch", "cat", "env"]) {
    for (const dir of ["/usr/bin", "/bin"]) {
      try {
        symlinkSync(join(dir, tool), join(bin, tool));
        break;
      } catch {
        // try the next folder
      }
    }
  }
  savedPath = process.env.PATH;
  process.env.PATH = bin;
  resetSandboxStatus();
});

afterEach(() => {
  process.env.PATH = savedPath;
  resetSandboxStatus();
  rmSync(bin, { recursive: true, force: true });
});

describe("keel run --yes without bubblewrap", () => {
  it("runs every call and says once what --yes allows without the sandbox", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "ls" }),
        reply().tool("shell", { command: "touch made.txt" }),
        reply().text("done"),
      ),
    );
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    const notices = r.stderr.split("\n").filter((l) => /sandbox/i.test(l));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/--yes/);
    expect(notices[0]).not.toMatch(/needs approval/);
    expect(r.stdout).toBe("done\n");
    expect(existsSync(join(world.project, "made.txt"))).toBe(true);
  });
});
