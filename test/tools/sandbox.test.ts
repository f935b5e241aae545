/** The OS sandbox: what a command Keel approved on its own can and cannot do. */
import { execFileSync } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetSandboxStatus, sandboxStatus } from "../../src/tools/sandbox.js";
import { createShellTool, SANDBOX_NOTE } from "../../src/tools/shell.js";
import { NO_SIGNAL, tempDir } from "./helpers.js";

const REPO = resolve(__dirname, "../..");
const status = sandboxStatus();
if (!status.available) console.warn(`sandbox tests skipped: ${status.reason}`);

let project: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;
let server: Server | undefined;
beforeEach(() => {
  project = tempDir();
  outside = tempDir();
});
afterEach(async () => {
  project.cleanup();
  outside.cleanup();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const run = async (command: string, env: NodeJS.ProcessEnv = process.env) => {
  const tool = createShellTool({ cwd: project.dir, env });
  return tool.run({ command }, { signal: NO_SIGNAL, sandboxed: true });
};

describe.skipIf(!status.available)("sandboxed shell", () => {
  it("reads the project but writes nothing, inside or outside it", async () => {
    writeFileSync(join(project.dir, "a.txt"), "content-a\n");
    const r = await run(
      `cat a.txt; touch b.txt; touch ${outside.dir}/c; echo x > ${project.dir}/a.txt; cat a.txt`,
    );
    expect(r.content.match(/content-a/g)).toHaveLength(2);
    expect(r.content).toMatch(/Read-only file system/);
    expect(existsSync(join(project.dir, "b.txt"))).toBe(false);
    expect(existsSync(join(outside.dir, "c"))).toBe(false);
  });

  it("has a private /tmp and does not see the home directory", async () => {
    const home = join(outside.dir, "home");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET-KEY");
    const r = await run(
      `ls ${outside.dir}; cat ${home}/.ssh/id_rsa; echo t > /tmp/t && cat /tmp/t`,
      {
        ...process.env,
        HOME: home,
      },
    );
    expect(r.content).not.toContain("SECRET-KEY");
    expect(r.content).toContain("t\n");
    // A command failing on a hidden path is told why: the home is hidden, not missing.
    const hidden = await run(`cat ${home}/.ssh/id_rsa`, { ...process.env, HOME: home });
    expect(hidden.content).toContain(SANDBOX_NOTE);
    expect(r.content).not.toContain(SANDBOX_NOTE);
    expect(existsSync("/tmp/t")).toBe(false);
  });

  it("does not see a KEEL_HOME outside the home directory (its config.json holds the key)", async () => {
    // Outside /tmp and the (test's) home, both hidden anyway: under the checkout, or under the
    // real home when the checkout is in /tmp (a CI clone).
    const base = [join(REPO, "node_modules"), homedir()].find(
      (d) => !/^\/(var\/)?tmp(\/|$)/.test(d),
    );
    if (base === undefined) return; // nowhere outside the hidden places to try
    const keelHome = mkdtempSync(join(base, ".keel-home-"));
    try {
      writeFileSync(join(keelHome, "config.json"), '{"apiKey":"sk-SECRET-IN-CONFIG"}');
      const r = await run(`cat ${keelHome}/config.json; ls -a ${keelHome}`, {
        ...process.env,
        HOME: join(outside.dir, "home"),
        KEEL_HOME: keelHome,
      });
      expect(r.content).not.toContain("SECRET");
      const visible = await run(`cat ${keelHome}/config.json`, {
        ...process.env,
        HOME: join(outside.dir, "home"),
        KEEL_HOME: "",
      });
      expect(visible.content).toContain("SECRET"); // the control: readable when not named
    } finally {
      rmSync(keelHome, { recursive: true, force: true });
    }
  });

  it("does not see a KEEL_HOME inside the project, nor ~/.keel when the project is the home", async () => {
    const inside = join(project.dir, ".keel-home");
    mkdirSync(inside);
    writeFileSync(join(inside, "config.json"), '{"apiKey":"sk-SECRET-IN-PROJECT"}');
    writeFileSync(join(project.dir, "visible.txt"), "the project itself\n");
    const r = await run("cat .keel-home/config.json; cat visible.txt", {
      ...process.env,
      KEEL_HOME: inside,
    });
    expect(r.content).not.toContain("SECRET");
    expect(r.content).toContain("the project itself");
    // The project is the home directory: the home is bound back, ~/.keel is hidden again.
    mkdirSync(join(project.dir, ".keel"));
    writeFileSync(join(project.dir, ".keel", "config.json"), '{"apiKey":"sk-SECRET-IN-HOME"}');
    const home = await run("cat .keel/config.json; cat visible.txt", {
      ...process.env,
      HOME: project.dir,
      KEEL_HOME: "",
    });
    expect(home.content).not.toContain("SECRET");
    expect(home.content).toContain("the project itself");
  });

  it("git works from a subdirectory of a repository and from a worktree under the hidden home", async () => {
    const home = join(outside.dir, "home");
    const repo = join(home, "repo");
    mkdirSync(join(repo, "sub"), { recursive: true });
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET-KEY");
    writeFileSync(join(repo, "sub", "f.txt"), "x\n");
    const env = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", args, { cwd, env, stdio: "pipe" });
    const initWithCommit = (dir: string) => {
      git(dir, "init", "-q");
      git(
        dir,
        "-c",
        "user.email=a@b",
        "-c",
        "user.name=n",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "i",
      );
    };
    initWithCommit(repo);
    git(repo, "worktree", "add", "-q", join(home, "wt"));
    // A submodule: its .git file points into the superproject's .git/modules.
    const lib = join(outside.dir, "lib");
    mkdirSync(lib);
    initWithCommit(lib);
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "mod");
    for (const cwd of [join(repo, "sub"), join(home, "wt"), join(repo, "mod")]) {
      const tool = createShellTool({ cwd, env });
      const r = await tool.run(
        { command: "git status --short --branch; cat ~/.ssh/id_rsa" },
        { signal: NO_SIGNAL, sandboxed: true },
      );
      expect(r.content, cwd).toMatch(/## /);
      expect(r.content, cwd).not.toMatch(/not a git repository/);
      expect(r.content, cwd).not.toContain("SECRET-KEY");
    }
  });

  it("a .git file of the project's cannot bind back the root, the home or another directory", async () => {
    const home = join(outside.dir, "home");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET-KEY");
    mkdirSync(join(home, "other", ".git", "worktrees", "x"), { recursive: true });
    writeFileSync(join(home, "other", "notes.txt"), "SECRET-OTHER");
    const env = { ...process.env, HOME: home };
    const targets = [
      "../../../../../../../../..", // resolves to /
      home,
      join(home, ".ssh"),
      join(home, "other"),
      join(home, "other", ".git", "worktrees", "x"), // not pointing back at this project
      "/tmp",
    ];
    for (const target of targets) {
      writeFileSync(join(project.dir, ".git"), `gitdir: ${target}\n`);
      const r = await run(
        `cat ${home}/.ssh/id_rsa; cat ${home}/other/notes.txt; ls /tmp | head -3; ls ${home}`,
        env,
      );
      expect(r.content, target).not.toContain("SECRET");
      expect(r.content, target).not.toMatch(/^other$/m);
    }
  });

  it("a home that is a git repository (dotfiles) is not bound back for a project inside it", async () => {
    const home = join(outside.dir, "home");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET-KEY");
    execFileSync("git", ["init", "-q", home]);
    const proj = join(home, "code", "proj");
    mkdirSync(proj, { recursive: true });
    writeFileSync(join(proj, "mine.txt"), "the project\n");
    const tool = createShellTool({ cwd: proj, env: { ...process.env, HOME: home } });
    const r = await tool.run(
      { command: `cat mine.txt; cat ${home}/.ssh/id_rsa` },
      { signal: NO_SIGNAL, sandboxed: true },
    );
    expect(r.content).toContain("the project");
    expect(r.content).not.toContain("SECRET");
  });

  it("a barred link to a visible file outside the project reads empty, and so does its target", async () => {
    const base = [join(REPO, "node_modules"), homedir()].find(
      (d) => !/^\/(var\/)?tmp(\/|$)/.test(d),
    );
    if (base === undefined) return; // nowhere visible outside the hidden places to try
    const outsideDir = mkdtempSync(join(base, ".keel-barred-"));
    try {
      writeFileSync(join(outsideDir, "creds.txt"), "SECRET-OUTSIDE\n");
      const { symlinkSync } = await import("node:fs");
      symlinkSync(join(outsideDir, "creds.txt"), join(project.dir, "creds"));
      writeFileSync(join(project.dir, "ok.txt"), "visible\n");
      const tool = createShellTool({ cwd: project.dir, env: process.env });
      const r = await tool.run(
        { command: `cat creds; cat ${outsideDir}/creds.txt; cat ok.txt` },
        { signal: NO_SIGNAL, sandboxed: true, readBarred: (abs) => abs.endsWith("/creds") },
      );
      expect(r.content).toContain("visible");
      expect(r.content).not.toContain("SECRET");
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it("has no network, not even 127.0.0.1", async () => {
    let connected = false;
    server = createServer((s) => {
      connected = true;
      s.destroy();
    });
    await new Promise<void>((r) => server?.listen(0, "127.0.0.1", () => r()));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    // HOME elsewhere: a node installed under the real home stays visible.
    const r = await run(
      `"${process.execPath}" -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>console.log('CONNECTED')).on('error',e=>console.log('ERR',e.code))"`,
      { ...process.env, HOME: outside.dir },
    );
    expect(r.content).toMatch(/ERR/);
    expect(r.content).not.toContain("CONNECTED");
    expect(connected).toBe(false);
  });

  // A socket under /run needs a user who may write there (root here and in CI).
  it.skipIf(!writable("/run"))(
    "cannot reach the host's unix sockets under /run (D-Bus, docker.sock, agents)",
    async () => {
      const dir = mkdtempSync("/run/keel-sock-");
      const socket = join(dir, "agent.sock");
      let connected = false;
      server = createServer((s) => {
        connected = true;
        s.destroy();
      });
      await new Promise<void>((r) => server?.listen(socket, () => r()));
      try {
        const r = await run(
          `"${process.execPath}" -e "require('net').connect('${socket}').on('connect',()=>console.log('CONNECTED')).on('error',e=>console.log('ERR',e.code))"; ls /var/run/`,
          { ...process.env, HOME: outside.dir },
        );
        expect(r.content).toMatch(/ERR/);
        expect(r.content).not.toContain("CONNECTED");
        expect(connected).toBe(false);
      } finally {
        await new Promise<void>((r) => server?.close(() => r()));
        server = undefined;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("a timeout kills the sandboxed command", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const r = await tool.run(
      { command: "sleep 30", timeout_ms: 300 },
      { signal: NO_SIGNAL, sandboxed: true },
    );
    expect(r.content).toContain("timed out");
  });
});

describe("without bubblewrap", () => {
  it("a command approved only for the sandbox does not run, and says why", async () => {
    resetSandboxStatus();
    try {
      const tool = createShellTool({
        cwd: project.dir,
        env: { ...process.env, PATH: "/nonexistent" },
      });
      const r = await tool.run({ command: "touch made" }, { signal: NO_SIGNAL, sandboxed: true });
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/bubblewrap \(bwrap\) is not installed/);
      expect(existsSync(join(project.dir, "made"))).toBe(false);
    } finally {
      resetSandboxStatus();
    }
  });
});
