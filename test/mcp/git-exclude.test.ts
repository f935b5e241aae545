/** Where `keel mcp add` puts the rule that keeps `.keel/settings.local.json` out of commits. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { excludeFromGit, findGitDirs } from "../../src/mcp/git-exclude.js";

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));
const fresh = () => {
  root = mkdtempSync(join(tmpdir(), "keel-exclude-"));
  return root;
};

describe("excludeFromGit", () => {
  it("a linked worktree's rule goes to the shared git directory's info/exclude", async () => {
    const r = fresh();
    mkdirSync(join(r, "main", ".git", "worktrees", "wt"), { recursive: true });
    writeFileSync(join(r, "main", ".git", "worktrees", "wt", "commondir"), "../..\n");
    mkdirSync(join(r, "wt", ".keel"), { recursive: true });
    writeFileSync(join(r, "wt", ".git"), "gitdir: ../main/.git/worktrees/wt\n");
    expect(await findGitDirs(join(r, "wt", ".keel"))).toEqual({
      workTree: join(r, "wt"),
      commonDir: join(r, "main", ".git"),
    });
    const done = await excludeFromGit(join(r, "wt", ".keel", "settings.local.json"));
    expect(done).toEqual({
      state: "added",
      excludeFile: join(r, "main", ".git", "info", "exclude"),
    });
    expect(readFileSync(join(r, "main", ".git", "info", "exclude"), "utf8")).toContain(
      "\n/.keel/settings.local.json\n",
    );
  });

  it("a submodule's rule goes to its own git directory; glob characters are escaped", async () => {
    const r = fresh();
    mkdirSync(join(r, ".git", "modules", "sub"), { recursive: true });
    const sub = join(r, "sub [x]*");
    mkdirSync(join(sub, ".keel"), { recursive: true });
    writeFileSync(join(sub, ".git"), `gitdir: ${join(r, ".git", "modules", "sub")}\n`);
    const done = await excludeFromGit(join(sub, ".keel", "settings.local.json"));
    expect(done.state).toBe("added");
    const exclude = join(r, ".git", "modules", "sub", "info", "exclude");
    writeFileSync(exclude, `${readFileSync(exclude, "utf8")}# mine\nno-newline-at-end`);
    expect(await excludeFromGit(join(sub, ".keel", "settings.local.json"))).toEqual({
      state: "present",
      excludeFile: exclude,
    });
    expect(readFileSync(exclude, "utf8")).toBe(
      "# Keel's personal settings (keel mcp add): may hold tokens, never committed\n/.keel/settings.local.json\n# mine\nno-newline-at-end",
    );
  });

  it("escapes glob characters of a subdirectory project, and outside git does nothing", async () => {
    const r = fresh();
    mkdirSync(join(r, "repo", ".git"), { recursive: true });
    const file = join(r, "repo", "a [b]*?", ".keel", "settings.local.json");
    expect((await excludeFromGit(file)).state).toBe("added");
    expect(readFileSync(join(r, "repo", ".git", "info", "exclude"), "utf8")).toContain(
      "\n/a \\[b\\]\\*\\?/.keel/settings.local.json\n",
    );
    expect(await excludeFromGit(join(r, "elsewhere", ".keel", "settings.local.json"))).toEqual({
      state: "not-git",
    });
  });
});
