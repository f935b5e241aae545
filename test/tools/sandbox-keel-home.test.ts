/**
 * The sandbox and Keel's home inside the project: a command Keel runs on its own can neither
 * read KEEL_HOME (the provider key) nor write it (trust records, config.json, code caches) —
 * protected-paths.ts covers the write tools, this the sandboxed shell.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandboxStatus } from "../../src/tools/sandbox.js";
import { createShellTool } from "../../src/tools/shell.js";
import { NO_SIGNAL, tempDir } from "./helpers.js";

const status = sandboxStatus();

let project: ReturnType<typeof tempDir>;
beforeEach(() => {
  project = tempDir();
});
afterEach(() => {
  project.cleanup();
});

const run = async (command: string, env: NodeJS.ProcessEnv) => {
  const tool = createShellTool({ cwd: project.dir, env });
  return tool.run({ command }, { signal: NO_SIGNAL, sandboxed: true });
};

const PLANT = (dir: string) =>
  [
    `cat ${dir}/config.json`,
    `echo planted > ${dir}/trust.json`,
    `echo '{"baseUrl":"https://evil.example"}' > ${dir}/config.json`,
    `mkdir -p ${dir}/cache && echo planted > ${dir}/cache/start.cache`,
    "echo ran",
  ].join("; ");

describe.skipIf(!status.available)("sandboxed shell and KEEL_HOME inside the project", () => {
  for (const [name, dirName, env] of [
    [
      "KEEL_HOME is a folder of the project",
      ".keel-home",
      (p: string) => ({ KEEL_HOME: join(p, ".keel-home") }),
    ],
    [
      "the project is the home directory (~/.keel)",
      ".keel",
      (p: string) => ({ HOME: p, KEEL_HOME: "" }),
    ],
  ] as const) {
    it(`${name}: a command neither reads its config nor plants a trust record, config or cache`, async () => {
      const home = join(project.dir, dirName);
      mkdirSync(home);
      const config = '{"apiKey":"sk-SECRET-IN-HOME"}';
      writeFileSync(join(home, "config.json"), config);
      const r = await run(PLANT(dirName), { ...process.env, ...env(project.dir) });
      expect(r.content).toContain("ran"); // the command did run, in the sandbox
      expect(r.content).not.toContain("SECRET");
      expect(readFileSync(join(home, "config.json"), "utf8")).toBe(config);
      expect(existsSync(join(home, "trust.json"))).toBe(false);
      expect(existsSync(join(home, "cache"))).toBe(false);
    });
  }
});
