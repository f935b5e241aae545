import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditFileTool } from "../../src/tools/edit-file.js";
import { createListDirTool } from "../../src/tools/list-dir.js";
import { createReadFileTool, READ_DEFAULT_LIMIT } from "../../src/tools/read-file.js";
import { createWriteFileTool } from "../../src/tools/write-file.js";
import { NO_SIGNAL, tempDir } from "./helpers.js";

let project: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;
const run = { signal: NO_SIGNAL };

beforeEach(() => {
  project = tempDir();
  outside = tempDir("keel-outside-");
});
afterEach(() => {
  project.cleanup();
  outside.cleanup();
});

function put(rel: string, content: string | Buffer): void {
  const abs = join(project.dir, rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, content);
}

describe("read_file", () => {
  it("numbers lines and pages with offset and limit", async () => {
    put("a.txt", "one\ntwo\nthree\nfour\n");
    const tool = createReadFileTool({ cwd: project.dir });
    const all = await tool.run({ path: "a.txt" }, run);
    expect(all).toMatchObject({ isError: false, content: "1\tone\n2\ttwo\n3\tthree\n4\tfour" });
    const part = await tool.run({ path: "a.txt", offset: 2, limit: 2 }, run);
    expect(part.content).toBe(
      "2\ttwo\n3\tthree\n[showing lines 2-3 of 4; call again with offset=4 to read more]",
    );
  });

  it("stops at the default limit and says how to continue", async () => {
    put(
      "long.txt",
      Array.from({ length: READ_DEFAULT_LIMIT + 5 }, (_, i) => `l${i + 1}`).join("\n"),
    );
    const r = await createReadFileTool({ cwd: project.dir }).run({ path: "long.txt" }, run);
    expect(r.content).toContain(`offset=${READ_DEFAULT_LIMIT + 1}`);
    expect(r.content).not.toContain(`l${READ_DEFAULT_LIMIT + 1}\n`);
  });

  it("gives clear errors for a missing file, a directory, a binary file and a bad offset", async () => {
    put("bin.dat", Buffer.from([1, 2, 0, 3]));
    put("dir/x.txt", "x\n");
    put("short.txt", "a\nb\n");
    const tool = createReadFileTool({ cwd: project.dir });
    expect((await tool.run({ path: "nope.ts" }, run)).content).toBe(
      "read_file: nope.ts does not exist.",
    );
    expect((await tool.run({ path: "dir" }, run)).content).toContain(
      "dir is a directory, not a file; use list_dir",
    );
    expect((await tool.run({ path: "bin.dat" }, run)).content).toContain(
      "looks like a binary file",
    );
    const past = await tool.run({ path: "short.txt", offset: 9 }, run);
    expect(past).toMatchObject({ isError: true });
    expect(past.content).toContain("offset 9 is past the end of short.txt, which has 2 lines");
  });

  it("reports an empty file", async () => {
    put("empty.txt", "");
    const r = await createReadFileTool({ cwd: project.dir }).run({ path: "empty.txt" }, run);
    expect(r).toMatchObject({ isError: false, content: "(empty.txt is empty)" });
  });

  it("refuses files outside the project, also through a symlink, unless allowed explicitly", async () => {
    writeFileSync(join(outside.dir, "secret.txt"), "s3cret\n");
    symlinkSync(outside.dir, join(project.dir, "link"));
    const tool = createReadFileTool({ cwd: project.dir });
    for (const path of [join(outside.dir, "secret.txt"), "../x", "link/secret.txt"]) {
      const r = await tool.run({ path }, run);
      expect(r.isError).toBe(true);
      expect(r.content).toContain("is outside the project directory");
      expect(r.content).not.toContain("s3cret");
    }
    const allowed = createReadFileTool({ cwd: project.dir }, { extraReadDirs: [outside.dir] });
    const ok = await allowed.run({ path: join(outside.dir, "secret.txt") }, run);
    expect(ok.content).toBe("1\ts3cret");
  });
});

describe("write_file", () => {
  it("creates parent directories and reports created vs overwritten", async () => {
    const tool = createWriteFileTool({ cwd: project.dir });
    const first = await tool.run({ path: "deep/er/new.ts", content: "a\nb\n" }, run);
    expect(first).toMatchObject({
      isError: false,
      details: { created: true, path: "deep/er/new.ts" },
    });
    expect(first.content).toContain("Created deep/er/new.ts");
    expect(readFileSync(join(project.dir, "deep/er/new.ts"), "utf8")).toBe("a\nb\n");
    const second = await tool.run({ path: "deep/er/new.ts", content: "c" }, run);
    expect(second.content).toContain("Overwrote deep/er/new.ts");
    expect(readFileSync(join(project.dir, "deep/er/new.ts"), "utf8")).toBe("c");
  });

  it("refuses to write outside the project, including through a symlinked directory", async () => {
    symlinkSync(outside.dir, join(project.dir, "link"));
    const tool = createWriteFileTool({ cwd: project.dir });
    for (const path of [
      "../escape.txt",
      join(outside.dir, "abs.txt"),
      "link/through.txt",
      "link/new/dir/f.txt",
    ]) {
      const r = await tool.run({ path, content: "x" }, run);
      expect(r.isError).toBe(true);
      expect(r.content).toContain("only files inside the project can be written");
    }
    expect(() => readFileSync(join(outside.dir, "through.txt"))).toThrow();
  });

  it("refuses to overwrite a directory", async () => {
    put("d/x", "");
    const r = await createWriteFileTool({ cwd: project.dir }).run({ path: "d", content: "x" }, run);
    expect(r).toMatchObject({
      isError: true,
      content: "write_file: d is a directory; give a file path.",
    });
  });
});

describe("edit_file", () => {
  it("replaces a unique match", async () => {
    put("src/a.ts", "const a = 1;\nconst b = 2;\n");
    const r = await createEditFileTool({ cwd: project.dir }).run(
      { path: "src/a.ts", old_string: "const b = 2;", new_string: "const b = $&3;" },
      run,
    );
    expect(r).toMatchObject({ isError: false, details: { replacements: 1, firstLine: 2 } });
    // `$&` must be literal text, not a replacement pattern.
    expect(readFileSync(join(project.dir, "src/a.ts"), "utf8")).toBe(
      "const a = 1;\nconst b = $&3;\n",
    );
  });

  it("refuses an ambiguous match, naming the count and the fix", async () => {
    put("src/a.ts", "x();\nx();\nx();\n");
    const tool = createEditFileTool({ cwd: project.dir });
    const r = await tool.run({ path: "src/a.ts", old_string: "x();", new_string: "y();" }, run);
    expect(r).toMatchObject({
      isError: true,
      content:
        "edit_file: old_string was found 3 times in src/a.ts; add surrounding lines to make it unique or set replace_all.",
    });
    expect(readFileSync(join(project.dir, "src/a.ts"), "utf8")).toBe("x();\nx();\nx();\n");
    const all = await tool.run(
      { path: "src/a.ts", old_string: "x();", new_string: "y();", replace_all: true },
      run,
    );
    expect(all.content).toContain("replaced 3 occurrences");
    expect(readFileSync(join(project.dir, "src/a.ts"), "utf8")).toBe("y();\ny();\ny();\n");
  });

  it("explains a missing match, a no-op edit, an empty old_string and a missing file", async () => {
    put("a.txt", "hello\n");
    const tool = createEditFileTool({ cwd: project.dir });
    const missing = await tool.run({ path: "a.txt", old_string: "bye", new_string: "x" }, run);
    expect(missing.content).toContain("old_string was not found in a.txt");
    const noop = await tool.run({ path: "a.txt", old_string: "hello", new_string: "hello" }, run);
    expect(noop.content).toContain("identical");
    const empty = await tool.run({ path: "a.txt", old_string: "", new_string: "x" }, run);
    expect(empty.content).toContain("old_string is empty");
    const nofile = await tool.run({ path: "b.txt", old_string: "a", new_string: "b" }, run);
    expect(nofile.content).toBe("edit_file: b.txt does not exist; use write_file to create it.");
    for (const r of [missing, noop, empty, nofile]) expect(r.isError).toBe(true);
    expect(readFileSync(join(project.dir, "a.txt"), "utf8")).toBe("hello\n");
  });

  it("matches \\n in old_string against a CRLF file and keeps CRLF", async () => {
    put("w.txt", "a\r\nb\r\nc\r\n");
    const r = await createEditFileTool({ cwd: project.dir }).run(
      { path: "w.txt", old_string: "a\nb", new_string: "a\nB" },
      run,
    );
    expect(r.isError).toBe(false);
    expect(readFileSync(join(project.dir, "w.txt"), "utf8")).toBe("a\r\nB\r\nc\r\n");
  });

  it("refuses edits outside the project", async () => {
    writeFileSync(join(outside.dir, "o.txt"), "a");
    const r = await createEditFileTool({ cwd: project.dir }).run(
      { path: join(outside.dir, "o.txt"), old_string: "a", new_string: "b" },
      run,
    );
    expect(r.isError).toBe(true);
    expect(readFileSync(join(outside.dir, "o.txt"), "utf8")).toBe("a");
  });
});

describe("list_dir", () => {
  it("lists sorted entries with directories marked", async () => {
    put("b.txt", "");
    put("a/x.txt", "");
    put(".hidden", "");
    const r = await createListDirTool({ cwd: project.dir }).run({ path: "." }, run);
    expect(r).toMatchObject({ isError: false, content: ".hidden\na/\nb.txt" });
  });

  it("explains a missing directory and a file given as a directory", async () => {
    put("f.txt", "");
    const tool = createListDirTool({ cwd: project.dir });
    expect((await tool.run({ path: "nope" }, run)).content).toBe("list_dir: nope does not exist.");
    expect((await tool.run({ path: "f.txt" }, run)).content).toContain(
      "is a file, not a directory",
    );
  });

  it("uses project-relative primary arguments for hook conditions", () => {
    const tool = createListDirTool({ cwd: project.dir });
    expect(tool.primaryArg({ path: join(project.dir, "src", "x") })).toBe("src/x");
    expect(tool.primaryArg({ path: "./src/../lib" })).toBe("lib");
  });
});
