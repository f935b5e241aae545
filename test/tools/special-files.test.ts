/**
 * A FIFO, socket or device in the project never hangs the read tools: reading a FIFO with no
 * writer blocks in the kernel, where no abort (and, before, no SIGTERM) reaches it. A tool
 * that did open one is unblocked here by opening the FIFO for writing after the deadline, so a
 * regression fails on time instead of hanging the test run.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRegularFile } from "../../src/tools/file-operations.js";
import { createGlobTool } from "../../src/tools/glob.js";
import { createGrepTool } from "../../src/tools/grep.js";
import { createListDirTool } from "../../src/tools/list-dir.js";
import { createReadFileTool } from "../../src/tools/read-file.js";
import { NO_SIGNAL, tempDir } from "./helpers.js";

let project: ReturnType<typeof tempDir>;
let fifo: string;
let server: Server | undefined;
beforeEach(() => {
  project = tempDir();
  fifo = join(project.dir, "pipe");
  execFileSync("mkfifo", [fifo]);
  writeFileSync(join(project.dir, "real.txt"), "needle here\n");
  symlinkSync("pipe", join(project.dir, "link-to-pipe"));
});
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  project.cleanup();
});

/** The promise's value, or "HUNG" when it took over `ms` (the FIFO is then fed to end it). */
async function settlesIn<T>(p: Promise<T>, ms = 2000): Promise<T | "HUNG"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"HUNG">((r) => {
    timer = setTimeout(() => r("HUNG"), ms);
  });
  const first = await Promise.race([p, late]);
  clearTimeout(timer);
  if (first === "HUNG") {
    // A reader is blocked in open(): a writer lets it through, closing it gives EOF.
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    await p.catch(() => undefined);
  }
  return first;
}

const run = { signal: NO_SIGNAL };

describe("special files in the project", () => {
  it("read_file refuses a FIFO and a link to one, saying what it is", async () => {
    const tool = createReadFileTool({ cwd: project.dir });
    for (const path of ["pipe", "link-to-pipe"]) {
      const r = await settlesIn(tool.run({ path }, run));
      expect(r).not.toBe("HUNG");
      if (r === "HUNG") return;
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/FIFO/);
    }
  });

  it("grep refuses a FIFO named directly and skips one (and links to it) in a directory", async () => {
    const tool = createGrepTool({ cwd: project.dir });
    const direct = await settlesIn(tool.run({ pattern: "needle", path: "pipe" }, run));
    expect(direct).not.toBe("HUNG");
    if (direct === "HUNG") return;
    expect(direct.isError).toBe(true);
    const tree = await settlesIn(tool.run({ pattern: "needle" }, run));
    expect(tree).not.toBe("HUNG");
    if (tree === "HUNG") return;
    expect(tree.content).toContain("real.txt:1: needle here");
  });

  it("glob and list_dir list it without opening it", async () => {
    const glob = await settlesIn(createGlobTool({ cwd: project.dir }).run({ pattern: "*" }, run));
    expect(glob).not.toBe("HUNG");
    const list = await settlesIn(createListDirTool({ cwd: project.dir }).run({ path: "." }, run));
    expect(list).not.toBe("HUNG");
    if (list !== "HUNG") expect(list.content).toContain("pipe");
  });

  it("a unix socket is refused too", async () => {
    const sock = join(project.dir, "sock");
    server = createServer();
    await new Promise<void>((r) => server?.listen(sock, () => r()));
    const r = await createReadFileTool({ cwd: project.dir }).run({ path: "sock" }, run);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/socket/);
  });

  it("a file swapped for a FIFO after the tool's stat is refused on the open descriptor", async () => {
    const r = await settlesIn(
      readRegularFile(fifo).then(
        () => "read",
        (e: NodeJS.ErrnoException) => e.code ?? "error",
      ),
    );
    expect(r).toBe("EINVAL");
  });
});
