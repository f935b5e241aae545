/**
 * The sandbox and a project reached through a link (`keel --cwd /tmp/link`, a path through a
 * linked directory): commands run, the project is the same at both names (read-only, its barred
 * files empty) and nothing hidden shows through either. bwrap cannot mount on a link or through
 * one, and a project bound at a link's name inside a hidden place was a second copy of it, where
 * what is hidden where it really is read in full.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandboxStatus } from "../../src/tools/sandbox.js";
import { createShellTool } from "../../src/tools/shell.js";
import { NO_SIGNAL, tempDir } from "./helpers.js";

const status = sandboxStatus();

const REPO = resolve(__dirname, "../..");
/** A directory outside every hidden place (/tmp, the test's home), or undefined when none. */
const visibleBase = () =>
  [join(REPO, "node_modules"), homedir()].find((d) => !/^\/(var\/)?tmp(\/|$)/.test(d));

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => {
  tmp.cleanup();
});

/** A project with a file to read and a `.env` the Read rules bar. */
const makeProject = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "visible.txt"), "the project itself\n");
  writeFileSync(join(dir, ".env"), "KEY=SECRET-BARRED\n");
  return dir;
};

const run = async (cwd: string, command: string, env: NodeJS.ProcessEnv) => {
  const tool = createShellTool({ cwd, env });
  return tool.run(
    { command },
    { signal: NO_SIGNAL, sandboxed: true, readBarred: (abs) => abs.endsWith("/.env") },
  );
};

/** Reads the project and its barred file, and tries to write, at each of `names`. */
const PROBE = (names: readonly string[]) =>
  [
    "cat visible.txt",
    "cat .env",
    ...names.flatMap((n) => [`cat ${n}/visible.txt`, `cat ${n}/.env`, `echo x > ${n}/planted`]),
    "echo ran",
  ].join("; ");

const expectProjectSeen = (content: string, names: readonly string[], real: string) => {
  expect(content).not.toMatch(/Can't |bwrap:/);
  expect(content).toContain("ran");
  expect(content.match(/the project itself/g)).toHaveLength(1 + names.length);
  expect(content).not.toContain("SECRET");
  expect(existsSync(join(real, "planted"))).toBe(false);
};

describe.skipIf(!status.available)("sandboxed shell in a project reached through a link", () => {
  const env = () => ({ ...process.env, HOME: join(tmp.dir, "home"), KEEL_HOME: "" });

  it("a link inside /tmp (relative, through another link) to a project in /tmp: both names, barred files empty", async () => {
    const real = makeProject(join(tmp.dir, "real", "project"));
    mkdirSync(join(tmp.dir, "links"));
    symlinkSync("../real", join(tmp.dir, "links", "to-real"));
    symlinkSync("links/to-real/project", join(tmp.dir, "link"));
    const link = join(tmp.dir, "link");
    const r = await run(link, PROBE([link, real]), env());
    expectProjectSeen(r.content, [link, real], real);
  });

  it("the project is the home, named by a link inside /tmp: the config reads through neither name", async () => {
    const home = makeProject(join(tmp.dir, "home"));
    mkdirSync(join(home, ".keel"));
    writeFileSync(join(home, ".keel", "config.json"), '{"apiKey":"sk-SECRET-IN-HOME"}');
    const link = join(tmp.dir, "home-link");
    symlinkSync(home, link);
    const r = await run(
      link,
      `${PROBE([link])}; cat .keel/config.json; cat ${link}/.keel/config.json; cat ${home}/.keel/config.json`,
      { ...process.env, HOME: home, KEEL_HOME: "" },
    );
    expectProjectSeen(r.content, [link], home);
  });

  it("a link to a folder of a repository: git finds the repository where the folder really is", async () => {
    const repo = join(tmp.dir, "repo");
    makeProject(join(repo, "sub"));
    execFileSync("git", ["init", "-q", repo]);
    writeFileSync(join(repo, "tracked.txt"), "t\n");
    execFileSync("git", ["-C", repo, "add", "tracked.txt"]);
    const link = join(tmp.dir, "sub-link");
    symlinkSync(join(repo, "sub"), link);
    const r = await run(link, "git status --short ..; echo ran", env());
    expect(r.content).not.toMatch(/not a git repository|bwrap:/);
    expect(r.content).toContain("A  ../tracked.txt");
  });

  for (const [name, layout] of [
    [
      "a link outside every hidden place to a project in /tmp",
      (base: string, t: string) => {
        const real = makeProject(join(t, "real", "project"));
        symlinkSync(real, join(base, "link"));
        return { cwd: join(base, "link"), real };
      },
    ],
    [
      "a project in /tmp named through a linked directory outside every hidden place",
      (base: string, t: string) => {
        const real = makeProject(join(t, "real", "project"));
        symlinkSync(join(t, "real"), join(base, "parent-link"));
        return { cwd: join(base, "parent-link", "project"), real };
      },
    ],
    [
      "a link inside /tmp to a project outside every hidden place",
      (base: string, t: string) => {
        const real = makeProject(join(base, "real", "project"));
        symlinkSync(real, join(t, "link"));
        return { cwd: join(t, "link"), real };
      },
    ],
  ] as const) {
    it(`${name}: commands run, at both names, barred files empty`, async () => {
      const visible = visibleBase(); // a link under /tmp is gone with /tmp: try one outside it
      if (visible === undefined) return;
      const base = mkdtempSync(join(visible, ".keel-project-link-"));
      try {
        const { cwd, real } = layout(base, tmp.dir);
        const r = await run(cwd, PROBE([cwd, real]), env());
        expectProjectSeen(r.content, [cwd, real], real);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    });
  }

  it("a project named through a link inside KEEL_HOME: KEEL_HOME is still hidden", async () => {
    const visible = visibleBase();
    if (visible === undefined) return;
    const base = mkdtempSync(join(visible, ".keel-project-link-"));
    try {
      const keelHome = join(base, "keel-home");
      mkdirSync(keelHome);
      writeFileSync(join(keelHome, "config.json"), '{"apiKey":"sk-SECRET-KEEL-HOME"}');
      const real = makeProject(join(base, "project"));
      symlinkSync(real, join(keelHome, "project-link"));
      const cwd = join(keelHome, "project-link");
      const r = await run(cwd, `${PROBE([cwd, real])}; cat ${keelHome}/config.json`, {
        ...env(),
        KEEL_HOME: keelHome,
      });
      expectProjectSeen(r.content, [cwd, real], real);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it("a linked folder of the home holding the project and a program directory on PATH: both work", async () => {
    const visible = visibleBase();
    if (visible === undefined) return;
    const base = mkdtempSync(join(visible, ".keel-project-link-"));
    try {
      const home = join(base, "home");
      mkdirSync(home);
      const real = makeProject(join(base, "work", "project"));
      mkdirSync(join(base, "work", "bin"));
      writeFileSync(join(base, "work", "bin", "mytool"), "#!/bin/sh\necho tool-ran\n", {
        mode: 0o755,
      });
      symlinkSync(join(base, "work"), join(home, "work"));
      const cwd = join(home, "work", "project");
      const r = await run(cwd, `${PROBE([real])}; mytool`, {
        ...process.env,
        HOME: home,
        KEEL_HOME: "",
        PATH: `${home}/work/bin:${process.env.PATH}`,
      });
      expectProjectSeen(r.content, [real], real);
      expect(r.content).toContain("tool-ran");
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it("a program directory on PATH above the project, through a linked folder of the home: its copy of the project hides the same files", async () => {
    const visible = visibleBase();
    if (visible === undefined) return;
    const base = mkdtempSync(join(visible, ".keel-project-link-"));
    try {
      const home = join(base, "home");
      mkdirSync(home);
      const real = makeProject(join(base, "work", "project"));
      const keelHome = join(base, "work", ".keel");
      mkdirSync(keelHome);
      writeFileSync(join(keelHome, "config.json"), '{"apiKey":"sk-SECRET-IN-PATH-COPY"}');
      symlinkSync(join(base, "work"), join(home, "work"));
      // ~/work is bound back (a program folder) at its name: a second copy of the project and
      // of KEEL_HOME, made before the mounts that hide their files where they really are.
      const cwd = join(home, "work", "project");
      const r = await run(cwd, `${PROBE([cwd, real])}; cat ${home}/work/.keel/config.json`, {
        ...process.env,
        HOME: home,
        KEEL_HOME: join(home, "work", ".keel"),
        PATH: `${home}/work:${process.env.PATH}`,
      });
      expectProjectSeen(r.content, [cwd, real], real);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it("a home that is a link, and the project named through it: the home stays hidden", async () => {
    const visible = visibleBase();
    if (visible === undefined) return;
    const base = mkdtempSync(join(visible, ".keel-project-link-"));
    try {
      const homeReal = join(base, "home-real");
      const real = makeProject(join(homeReal, "project"));
      mkdirSync(join(homeReal, ".ssh"));
      writeFileSync(join(homeReal, ".ssh", "id_rsa"), "SECRET-KEY");
      const homeLink = join(base, "home-link");
      symlinkSync(homeReal, homeLink);
      const cwd = join(homeLink, "project");
      const r = await run(
        cwd,
        `${PROBE([cwd, real])}; cat ${homeLink}/.ssh/id_rsa; cat ${homeReal}/.ssh/id_rsa`,
        { ...process.env, HOME: homeLink, KEEL_HOME: "" },
      );
      expectProjectSeen(r.content, [cwd, real], real);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
