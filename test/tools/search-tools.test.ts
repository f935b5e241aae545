import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGlobTool } from "../../src/tools/glob.js";
import { createGrepTool, GREP_MAX_FILE_BYTES, GREP_MAX_MATCHES } from "../../src/tools/grep.js";
import { NO_SIGNAL, tempDir } from "./helpers.js";

let project: ReturnType<typeof tempDir>;
const run = { signal: NO_SIGNAL };

function put(rel: string, content: string | Buffer): void {
  const abs = join(project.dir, rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, content);
}

beforeEach(() => {
  project = tempDir();
  put("src/b.ts", "export const needle = 1;\n");
  put("src/a.ts", "// Needle in a comment\nconst x = needle;\n");
  put("src/deep/c.ts", "needle();\n");
  put("README.md", "no match here\n");
  put("node_modules/pkg/index.ts", "needle\n");
  put(".git/config", "needle\n");
  put("img.bin", Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2])]));
});
afterEach(() => project.cleanup());

describe("glob", () => {
  it("finds files sorted, skipping node_modules and .git", async () => {
    const r = await createGlobTool({ cwd: project.dir }).run({ pattern: "**/*.ts" }, run);
    expect(r.content).toBe("src/a.ts\nsrc/b.ts\nsrc/deep/c.ts");
  });

  it("searches inside a path and returns project-relative paths", async () => {
    const r = await createGlobTool({ cwd: project.dir }).run(
      { pattern: "*.ts", path: "src/deep" },
      run,
    );
    expect(r.content).toBe("src/deep/c.ts");
  });

  it("searches node_modules when the pattern names it", async () => {
    const r = await createGlobTool({ cwd: project.dir }).run(
      { pattern: "node_modules/**/*.ts" },
      run,
    );
    expect(r.content).toBe("node_modules/pkg/index.ts");
  });

  it("says when nothing matches and refuses paths outside the project", async () => {
    const tool = createGlobTool({ cwd: project.dir });
    const none = await tool.run({ pattern: "**/*.py" }, run);
    expect(none).toMatchObject({
      isError: false,
      content: 'No files match "**/*.py" in the project.',
    });
    const out = await tool.run({ pattern: "*", path: ".." }, run);
    expect(out.isError).toBe(true);
  });
});

describe("grep", () => {
  it("prints file:line: text sorted by path, skipping node_modules, .git and binary files", async () => {
    const r = await createGrepTool({ cwd: project.dir }).run({ pattern: "needle" }, run);
    expect(r.content).toBe(
      [
        "src/a.ts:2: const x = needle;",
        "src/b.ts:1: export const needle = 1;",
        "src/deep/c.ts:1: needle();",
      ].join("\n"),
    );
  });

  it("honours ignore_case, glob and a file path", async () => {
    const tool = createGrepTool({ cwd: project.dir });
    const ci = await tool.run({ pattern: "^// needle", ignore_case: true }, run);
    expect(ci.content).toBe("src/a.ts:1: // Needle in a comment");
    const globbed = await tool.run({ pattern: "needle", glob: "c.ts" }, run);
    expect(globbed.content).toBe("src/deep/c.ts:1: needle();");
    const pathGlob = await tool.run({ pattern: "needle", glob: "src/*.ts" }, run);
    expect(pathGlob.content.split("\n")).toHaveLength(2);
    const file = await tool.run({ pattern: "const", path: "src/b.ts" }, run);
    expect(file.content).toBe("src/b.ts:1: export const needle = 1;");
  });

  it("reports an invalid regex and no matches in words the model can act on", async () => {
    const tool = createGrepTool({ cwd: project.dir });
    const bad = await tool.run({ pattern: "foo(" }, run);
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain("grep: pattern is not valid RE2 syntax");
    const none = await tool.run({ pattern: "zzz" }, run);
    expect(none).toMatchObject({ isError: false, content: "No matches for /zzz/ in the project." });
  });

  it("caps the number of matches and skips large files", async () => {
    put("many.txt", "hit\n".repeat(GREP_MAX_MATCHES + 7));
    put("big.txt", `hit\n${"x".repeat(GREP_MAX_FILE_BYTES)}`);
    const r = await createGrepTool({ cwd: project.dir }).run({ pattern: "^hit$" }, run);
    const lines = r.content.split("\n");
    expect(lines.filter((l) => l.startsWith("many.txt:"))).toHaveLength(GREP_MAX_MATCHES);
    expect(r.content).toContain("[7 more matches not shown");
    expect(r.content).toContain("[1 files over");
    expect(r.content).not.toContain("big.txt:");
  });
});
