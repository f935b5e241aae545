import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countLines, createWriteFileTool } from "../../src/tools/write-file.js";
import { tempDir } from "./helpers.js";

let project: ReturnType<typeof tempDir>;
beforeEach(() => {
  project = tempDir();
});
afterEach(() => project.cleanup());

describe("write_file line count", () => {
  it.each([
    ["", 0],
    ["hello", 1],
    ["hello\n", 1],
    ["a\nb", 2],
    ["a\nb\n", 2],
    ["\n", 1],
    ["a\n\n", 2],
  ])("%j has %i line(s), as an editor shows it", (text, n) => {
    expect(countLines(text)).toBe(n);
  });

  it("reports it to the model and the UI", async () => {
    const tool = createWriteFileTool({ cwd: project.dir });
    const r = await tool.run(
      { path: "note.txt", content: "hello\n" },
      { signal: new AbortController().signal },
    );
    expect(r.content).toBe("Created note.txt (1 line, 6 bytes).");
    expect(r.details?.lines).toBe(1);
  });
});
