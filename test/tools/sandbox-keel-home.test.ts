/**
 * The sandbox and Keel's home inside the project: a command Keel runs on its own can neither
 * read KEEL_HOME (the provider key) nor write it (trust records, config.json, code caches) —
 * protected-paths.ts covers the write tools, this the sandboxed shell.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
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

const REPO = resolve(__dirname, "../..");
/** A directory outside every hidden place (/tmp, the test's home), or undefined when none. */
const visibleBase = () =>
  [join(REPO, "node_modules"), homedir()].find((d) => !/^\/(var\/)?tmp(\/|$)/.test(d));

describe.skipIf(!status.available)("sandboxed shell and a KEEL_HOME that is a link", () => {
  let outside: ReturnType<typeof tempDir>;
  beforeEach(() => {
    outside = tempDir();
  });
  afterEach(() => {
    outside.cleanup();
  });

  const keelDir = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), '{"apiKey":"sk-SECRET-THROUGH-LINK"}');
    return dir;
  };

  it("~/.keel -> a folder of the project (dotfiles): the config reads through neither path", async () => {
    const home = join(outside.dir, "home");
    const dotfiles = join(home, "dotfiles");
    const real = keelDir(join(dotfiles, "keel"));
    symlinkSync(real, join(home, ".keel"));
    writeFileSync(join(dotfiles, "visible.txt"), "the project itself\n");
    const tool = createShellTool({
      cwd: dotfiles,
      env: { ...process.env, HOME: home, KEEL_HOME: "" },
    });
    const r = await tool.run(
      { command: `${PLANT("keel")}; cat ${home}/.keel/config.json; cat visible.txt` },
      { signal: NO_SIGNAL, sandboxed: true },
    );
    expect(r.content).toContain("ran");
    expect(r.content).toContain("the project itself");
    expect(r.content).not.toContain("SECRET");
    expect(existsSync(join(real, "trust.json"))).toBe(false);
  });

  it("a link outside the project (relative) to a folder of the project: hidden there", async () => {
    const real = keelDir(join(project.dir, "keel-data"));
    const link = join(outside.dir, "keel-link");
    symlinkSync(relative(outside.dir, real), link);
    const r = await run(`${PLANT("keel-data")}; cat ${link}/config.json`, {
      ...process.env,
      KEEL_HOME: link,
    });
    expect(r.content).toContain("ran");
    expect(r.content).not.toContain("SECRET");
  });

  it("~/.keel -> a folder outside every hidden place: the target is hidden too", async () => {
    const base = visibleBase();
    if (base === undefined) return; // nowhere visible outside the hidden places to try
    const real = keelDir(mkdtempSync(join(base, ".keel-real-")));
    try {
      const home = join(outside.dir, "home");
      mkdirSync(home);
      symlinkSync(real, join(home, ".keel"));
      const r = await run(`cat ${real}/config.json; ls -a ${real} | sed s/^/listed:/; echo ran`, {
        ...process.env,
        HOME: home,
        KEEL_HOME: "",
      });
      expect(r.content).toContain("ran");
      expect(r.content).not.toContain("SECRET");
      expect(r.content).not.toContain("listed:config.json");
    } finally {
      rmSync(real, { recursive: true, force: true });
    }
  });

  for (const [name, layout] of [
    [
      "a relative link inside the project to a folder of the project",
      (p: string, _o: string) => {
        keelDir(join(p, "keel-data"));
        symlinkSync("keel-data", join(p, ".keel-link"));
        return { keelHome: join(p, ".keel-link"), paths: [".keel-link", "keel-data"] };
      },
    ],
    [
      "an absolute link inside the project to a folder of the project",
      (p: string, _o: string) => {
        keelDir(join(p, "keel-data"));
        symlinkSync(join(p, "keel-data"), join(p, ".keel-link"));
        return { keelHome: join(p, ".keel-link"), paths: [".keel-link", "keel-data"] };
      },
    ],
    [
      "a link inside the project to a folder outside it",
      (p: string, o: string) => {
        keelDir(join(o, "keel-data"));
        symlinkSync(join(o, "keel-data"), join(p, ".keel-link"));
        return { keelHome: join(p, ".keel-link"), paths: [".keel-link", join(o, "keel-data")] };
      },
    ],
    [
      "a folder of the project named through a linked directory",
      (p: string, _o: string) => {
        keelDir(join(p, "real", "keel"));
        symlinkSync(join(p, "real"), join(p, "linked"));
        return { keelHome: join(p, "linked", "keel"), paths: ["linked/keel", "real/keel"] };
      },
    ],
  ] as const) {
    it(`${name}: commands still run, and the config reads through neither path`, async () => {
      const { keelHome, paths } = layout(project.dir, outside.dir);
      const [first = ""] = paths;
      writeFileSync(join(project.dir, "visible.txt"), "the project itself\n");
      const r = await run(
        `${paths.map((d) => `cat ${d}/config.json`).join("; ")}; ${PLANT(first)}; cat visible.txt`,
        { ...process.env, KEEL_HOME: keelHome },
      );
      expect(r.content).not.toMatch(/Can't mount|bwrap:/);
      expect(r.content).toContain("ran");
      expect(r.content).toContain("the project itself");
      expect(r.content).not.toContain("SECRET");
    });
  }

  it("a home that is a link: commands still run, and the home reads through neither path", async () => {
    const base = visibleBase(); // a link under /tmp is gone with /tmp: try one outside it
    if (base === undefined) return;
    const dir = mkdtempSync(join(base, ".keel-home-link-"));
    try {
      const real = join(dir, "home-real");
      mkdirSync(join(real, ".ssh"), { recursive: true });
      writeFileSync(join(real, ".ssh", "id_rsa"), "SECRET-KEY");
      // A program installed under the home, on PATH by the link's name, stays runnable.
      mkdirSync(join(real, "bin"));
      writeFileSync(join(real, "bin", "mytool"), "#!/bin/sh\necho tool-ran\n", { mode: 0o755 });
      const link = join(dir, "home-link");
      symlinkSync(real, link);
      const r = await run(`cat ${link}/.ssh/id_rsa; cat ${real}/.ssh/id_rsa; mytool; echo ran`, {
        ...process.env,
        HOME: link,
        KEEL_HOME: "",
        PATH: `${link}/bin:${process.env.PATH}`,
      });
      expect(r.content).not.toMatch(/Can't mount|bwrap:/);
      expect(r.content).toContain("tool-ran");
      expect(r.content).toContain("ran");
      expect(r.content).not.toContain("SECRET");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
