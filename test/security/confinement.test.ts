/** Issue 8, attack 4: symlinks must not carry a write or a read out of the project. */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { createEditFileTool } from "../../src/tools/edit-file.js";
import { createGlobTool } from "../../src/tools/glob.js";
import { createGrepTool } from "../../src/tools/grep.js";
import { createListDirTool } from "../../src/tools/list-dir.js";
import { finalPath } from "../../src/tools/paths.js";
import { createReadFileTool } from "../../src/tools/read-file.js";
import { createWriteFileTool } from "../../src/tools/write-file.js";
import { keel, worldPerTest } from "../agent/harness.js";
import { NO_SIGNAL, tempDir } from "../tools/helpers.js";

let project: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;
beforeEach(() => {
  project = tempDir();
  outside = tempDir();
  writeFileSync(join(outside.dir, "secret.txt"), "TOP-SECRET needle\n");
  writeFileSync(join(project.dir, "mine.txt"), "my needle\n");
});
afterEach(() => {
  project.cleanup();
  outside.cleanup();
});

const ctx = () => ({ cwd: project.dir });
const opts = { signal: NO_SIGNAL };

describe("writes", () => {
  it("write_file through a dangling link to outside is refused and creates nothing", async () => {
    symlinkSync(join(outside.dir, "planted.txt"), join(project.dir, "dangling"));
    const r = await createWriteFileTool(ctx()).run({ path: "dangling", content: "x" }, opts);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/outside the project/);
    expect(existsSync(join(outside.dir, "planted.txt"))).toBe(false);
  });

  it("a relative dangling link, a chain of links and a linked directory are refused too", async () => {
    symlinkSync(`../${outside.dir.split("/").at(-1)}/rel.txt`, join(project.dir, "rel"));
    symlinkSync(join(project.dir, "rel"), join(project.dir, "chain"));
    symlinkSync(outside.dir, join(project.dir, "outdir"));
    const write = createWriteFileTool(ctx());
    for (const path of ["rel", "chain", "outdir/new.txt", "outdir/deeper/new.txt"]) {
      const r = await write.run({ path, content: "x" }, opts);
      expect(r.isError, path).toBe(true);
    }
    expect(existsSync(join(outside.dir, "rel.txt"))).toBe(false);
    expect(existsSync(join(outside.dir, "new.txt"))).toBe(false);
  });

  it("edit_file through a link to an outside file is refused", async () => {
    symlinkSync(join(outside.dir, "secret.txt"), join(project.dir, "link.txt"));
    const r = await createEditFileTool(ctx()).run(
      { path: "link.txt", old_string: "TOP", new_string: "PWN" },
      opts,
    );
    expect(r.isError).toBe(true);
    expect(readFileSync(join(outside.dir, "secret.txt"), "utf8")).toContain("TOP-SECRET");
  });

  it("links that stay inside the project work, dangling ones included", async () => {
    mkdirSync(join(project.dir, "sub"));
    symlinkSync("sub/new.txt", join(project.dir, "inside-dangling"));
    const r = await createWriteFileTool(ctx()).run(
      { path: "inside-dangling", content: "ok" },
      opts,
    );
    expect(r.isError).toBe(false);
    expect(readFileSync(join(project.dir, "sub", "new.txt"), "utf8")).toBe("ok");
  });
});

describe("reads", () => {
  beforeEach(() => {
    symlinkSync(join(outside.dir, "secret.txt"), join(project.dir, "leak.txt"));
    symlinkSync(outside.dir, join(project.dir, "leakdir"));
    symlinkSync("mine.txt", join(project.dir, "alias.txt"));
  });

  it("read_file refuses a link out, and a path through a linked directory", async () => {
    const read = createReadFileTool(ctx());
    for (const path of ["leak.txt", "leakdir/secret.txt"]) {
      const r = await read.run({ path }, opts);
      expect(r.isError, path).toBe(true);
      expect(r.content).not.toContain("TOP-SECRET");
    }
    const ok = await read.run({ path: "alias.txt" }, opts);
    expect(ok.content).toContain("my needle");
  });

  it("grep walks past links out but follows links inside", async () => {
    const r = await createGrepTool(ctx()).run({ pattern: "needle" }, opts);
    expect(r.content).not.toContain("TOP-SECRET");
    expect(r.content).toContain("mine.txt");
    expect(r.content).toContain("alias.txt");
    const direct = await createGrepTool(ctx()).run({ pattern: "needle", path: "leak.txt" }, opts);
    expect(direct.isError).toBe(true);
    expect(direct.content).not.toContain("TOP-SECRET");
  });

  it("glob does not list links out, nor walk linked directories", async () => {
    const r = await createGlobTool(ctx()).run({ pattern: "**/*.txt" }, opts);
    expect(r.content).toContain("mine.txt");
    expect(r.content).toContain("alias.txt");
    expect(r.content).not.toContain("leak.txt");
    expect(r.content).not.toContain("secret.txt");
    const into = await createGlobTool(ctx()).run({ pattern: "*", path: "leakdir" }, opts);
    expect(into.isError).toBe(true);
  });

  it("list_dir refuses a linked directory that leads out", async () => {
    const r = await createListDirTool(ctx()).run({ path: "leakdir" }, opts);
    expect(r.isError).toBe(true);
    expect(r.content).not.toContain("secret.txt");
  });
});

describe("finalPath", () => {
  it("follows dangling, relative and chained links; keeps missing components", () => {
    symlinkSync(join(outside.dir, "nope", "x"), join(project.dir, "d"));
    expect(finalPath(join(project.dir, "d"))).toBe(join(outside.dir, "nope", "x"));
    expect(finalPath(join(project.dir, "missing", "..", "mine.txt"))).toBe(
      join(project.dir, "mine.txt"),
    );
    symlinkSync("loop2", join(project.dir, "loop1"));
    symlinkSync("loop1", join(project.dir, "loop2"));
    expect(typeof finalPath(join(project.dir, "loop1"))).toBe("string");
  });
});

describe("through keel run (the simulator as the model)", () => {
  const newWorld = worldPerTest();
  it("acceptEdits: write_file through a planted dangling link is blocked", async () => {
    const world = await newWorld(
      script(reply().tool("write_file", { path: "planted", content: "pwned" }), reply().text("ok")),
    );
    const target = join(world.root, "outside-target.txt");
    symlinkSync(target, join(world.project, "planted"));
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("error");
    expect(existsSync(target)).toBe(false);
  });
});
