import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";

let dir: string;
let stderr: string;
const origWrite = process.stderr.write.bind(process.stderr);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "keel-interactive-"));
  process.env.KEEL_HOME = dir;
  stderr = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
});
afterEach(async () => {
  process.stderr.write = origWrite;
  delete process.env.KEEL_HOME;
  process.exitCode = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe("keel (default action)", () => {
  it("reports an unknown word as an unknown command", async () => {
    expect(await main(["frobnicate"])).toBe(1);
    expect(stderr).toContain("unknown command 'frobnicate'");
  });

  it("refuses --continue with --resume", async () => {
    expect(await main(["--continue", "--resume", "abc"])).toBe(1);
    expect(stderr).toContain("--continue and --resume cannot be used together");
  });

  it("rejects an unknown permission mode", async () => {
    expect(await main(["--mode", "yolo"])).toBe(1);
    expect(stderr).toMatch(/--mode/);
  });

  it("explains that the TUI needs a terminal", async () => {
    // vitest's stdin is not a TTY: the action loads the TUI lazily and refuses cleanly.
    expect(await main(["--cwd", dir])).toBe(1);
    expect(stderr).toContain("needs a terminal");
  });

  it("leaves subcommand options to the subcommand", async () => {
    // `--model` after `doctor` would be stolen by `keel --model` without positional options.
    expect(await main(["doctor", "--offline", "--cwd", dir, "--json"])).toBeTypeOf("number");
    expect(stderr).not.toContain("unknown option");
  });
});
