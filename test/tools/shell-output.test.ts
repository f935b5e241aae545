import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShellTool } from "../../src/tools/shell.js";
import { tempDir } from "./helpers.js";

let project: ReturnType<typeof tempDir>;
beforeEach(() => {
  project = tempDir();
});
afterEach(() => project.cleanup());

describe("shell onOutput", () => {
  it("hands over output while the command still runs", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const seen: string[] = [];
    // The command only finishes once the first line has reached onOutput (it creates `go`).
    const result = await tool.run(
      { command: "echo first; while [ ! -f go ]; do sleep 0.02; done; echo second >&2" },
      {
        signal: new AbortController().signal,
        onOutput: (text) => {
          seen.push(text);
          if (text.includes("first")) writeFileSync(join(project.dir, "go"), "");
        },
      },
    );
    expect(seen.join("")).toBe("first\nsecond\n");
    expect(result.content).toContain("second");
    expect(result.isError).toBe(false);
  });

  it("keeps a UTF-8 character split across chunks whole, and survives a throwing callback", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const seen: string[] = [];
    const result = await tool.run(
      { command: "printf '\\303'; sleep 0.05; printf '\\251\\n'" },
      {
        signal: new AbortController().signal,
        onOutput: (text) => {
          seen.push(text);
          throw new Error("ui broke");
        },
      },
    );
    expect(seen.join("")).toBe("é\n");
    expect(result.isError).toBe(false);
  });
});
