/** Temp KEEL_HOME and project directories for the session tests. */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/** A fresh temp directory, realpath'd. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh temp directory for every test of the file (made in beforeEach, removed in afterEach).
 * Call at the file's top level; read `.dir` inside tests.
 */
export function tempDirPerTest(prefix: string): { readonly dir: string } {
  let current: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    current = tempDir(prefix);
  });
  afterEach(() => {
    current?.cleanup();
    current = undefined;
  });
  return {
    get dir(): string {
      if (current === undefined) throw new Error(`temp dir ${prefix} read outside a test`);
      return current.dir;
    },
  };
}
