/**
 * Drives the real `keel` binary inside a private tmux server (its own socket, 80×24) and reads
 * the screen with capture-pane. Waiting is polling with a deadline, never a fixed sleep.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { Simulator } from "../../src/sim/server.js";

/** The repository root. */
export const ROOT = resolve(__dirname, "../..");

/** Whether tmux can be run here. */
export function hasTmux(): boolean {
  return spawnSync("tmux", ["-V"], { encoding: "utf8" }).status === 0;
}

/**
 * A private copy of the bundled CLI `npm run build` made (dist/bundle, and dist/native where
 * built) with its own bin and package.json and links to data and node_modules: the spawned
 * `keel` is the one that ships, and later changes to ./dist never hand it a half-written module.
 * Without a build (vitest run alone on a fresh checkout) it builds one with scripts/build-cli.mjs.
 * Copying, not building, in each tmux test file saved ~15 s per file on a loaded machine.
 */
export function buildPrivate(): { bin: string; bundle: string; cleanup: () => void } {
  const build = mkdtempSync(join(tmpdir(), "keel-tui-build-"));
  const bundle = join(build, "dist/bundle/keel.mjs");
  if (existsSync(join(ROOT, "dist/bundle/keel.mjs"))) {
    cpSync(join(ROOT, "dist/bundle"), join(build, "dist/bundle"), { recursive: true });
    if (existsSync(join(ROOT, "dist/native"))) {
      cpSync(join(ROOT, "dist/native"), join(build, "dist/native"), { recursive: true });
    }
  } else {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, "scripts/build-cli.mjs"), "--outdir", join(build, "dist/bundle")],
      { cwd: ROOT, encoding: "utf8" },
    );
    if (r.status !== 0 || !existsSync(bundle)) {
      rmSync(build, { recursive: true, force: true });
      throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
    }
  }
  mkdirSync(join(build, "bin"));
  copyFileSync(join(ROOT, "bin/keel.js"), join(build, "bin/keel.js"));
  // bin/keel.js is CommonJS because of this file.
  copyFileSync(join(ROOT, "bin/package.json"), join(build, "bin/package.json"));
  copyFileSync(join(ROOT, "package.json"), join(build, "package.json"));
  symlinkSync(join(ROOT, "data"), join(build, "data"));
  symlinkSync(join(ROOT, "node_modules"), join(build, "node_modules"));
  return {
    bin: join(build, "bin/keel.js"),
    bundle,
    cleanup: () => rmSync(build, { recursive: true, force: true }),
  };
}

/** What a tmux test file holds between its tests (see {@link e2eLifecycle}). */
export interface E2eState {
  /** The private build's bin/keel.js ("" when skipped). */
  bin: string;
  /** Closed after each test. */
  terminals: TmuxTerminal[];
  /** Closed after each test. */
  sims: Simulator[];
  /** Removed after each test. */
  dirs: string[];
  /** A temporary directory (removed after the test) with an empty home, Keel home and project. */
  world(prefix: string): { dir: string; home: string; keelHome: string; project: string };
}

/**
 * The lifecycle every tmux test file shares, registered with vitest: a private build before the
 * tests (none when `skip`), the terminals, simulators and temporary directories a test made
 * closed and removed after it, the build removed at the end.
 */
export function e2eLifecycle(opts: { skip?: boolean } = {}): E2eState {
  const state: E2eState = {
    bin: "",
    terminals: [],
    sims: [],
    dirs: [],
    world(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      state.dirs.push(dir);
      const paths = {
        dir,
        home: join(dir, "home"),
        keelHome: join(dir, "keel-home"),
        project: join(dir, "project"),
      };
      for (const d of [paths.home, paths.keelHome, paths.project]) mkdirSync(d);
      return paths;
    },
  };
  let cleanup = () => {};
  beforeAll(() => {
    if (opts.skip) return;
    const build = buildPrivate();
    state.bin = build.bin;
    cleanup = build.cleanup;
  }, 240_000);
  afterEach(async () => {
    for (const t of state.terminals.splice(0)) await t.closeAndWait();
    for (const s of state.sims.splice(0)) await s.close();
    // A Keel whose terminal just closed may still be writing its compile cache into a KEEL_HOME
    // here (at exit): retry instead of failing on a folder that filled up meanwhile.
    for (const d of state.dirs.splice(0)) {
      rmSync(d, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    }
  });
  afterAll(() => cleanup());
  return state;
}

/** A terminal running one command. */
export class TmuxTerminal {
  private readonly socket = `keel-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private readonly target = "keel";

  constructor(opts: {
    cwd: string;
    env: Record<string, string>;
    argv: string[];
    width?: number;
    height?: number;
  }) {
    const envArgs = Object.entries(opts.env).map(([k, v]) => `${k}=${v}`);
    // `env -i`: nothing from the test runner's environment (API keys, KEEL_*) leaks in. The
    // marker line tells the test how the program exited; the pane then stays for reading.
    const command = [
      "env",
      "-i",
      ...envArgs,
      "sh",
      "-c",
      '"$@"; echo "KEEL_EXITED $?"; sleep 600',
      "sh",
      ...opts.argv,
    ];
    this.tmux([
      "new-session",
      "-d",
      "-s",
      this.target,
      "-x",
      String(opts.width ?? 80),
      "-y",
      String(opts.height ?? 24),
      "-c",
      opts.cwd,
      ...command,
    ]);
    this.tmux(["set-option", "-t", this.target, "history-limit", "5000"]);
  }

  private tmux(args: string[]): string {
    return execFileSync("tmux", ["-u", "-L", this.socket, "-f", "/dev/null", ...args], {
      encoding: "utf8",
    });
  }

  /** The visible screen. */
  screen(): string {
    return this.tmux(["capture-pane", "-p", "-t", this.target]);
  }

  /** The visible screen with its colours and styles as escape sequences. */
  styledScreen(): string {
    return this.tmux(["capture-pane", "-p", "-e", "-t", this.target]);
  }

  /** Pastes text as a terminal does (bracketed paste when the program asked for it). */
  paste(text: string): void {
    this.tmux(["set-buffer", "-b", "keel-paste", "--", text]);
    this.tmux(["paste-buffer", "-p", "-d", "-b", "keel-paste", "-t", this.target]);
  }

  /** Everything printed so far: scrollback plus screen, wrapped lines joined. */
  all(): string {
    return this.tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", this.target]);
  }

  /** The pane title (an OSC 0 sequence that reached the terminal would change it). */
  title(): string {
    return this.tmux(["display-message", "-p", "-t", this.target, "#{pane_title}"]).trim();
  }

  /** Whether the program has put the terminal in raw mode (no line editing, no echo). */
  rawMode(): boolean {
    const tty = this.tmux(["display-message", "-p", "-t", this.target, "#{pane_tty}"]).trim();
    const r = spawnSync("stty", ["-F", tty, "-a"], { encoding: "utf8" });
    return (
      r.status === 0 && /(^|\s)-icanon(\s|$)/.test(r.stdout) && /(^|\s)-echo(\s|$)/.test(r.stdout)
    );
  }

  /** Bytes typed that the program has not read yet (the terminal's input queue, FIONREAD). */
  pendingInput(): number {
    const tty = this.tmux(["display-message", "-p", "-t", this.target, "#{pane_tty}"]).trim();
    const r = spawnSync(
      "python3",
      [
        "-c",
        "import fcntl,os,struct,sys,termios\n" +
          "fd=os.open(sys.argv[1],os.O_RDONLY|os.O_NOCTTY|os.O_NONBLOCK)\n" +
          "print(struct.unpack('i',fcntl.ioctl(fd,termios.FIONREAD,b'\\0'*4))[0])",
        tty,
      ],
      { encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`reading ${tty}'s input queue: ${r.stderr}`);
    return Number(r.stdout.trim());
  }

  /** Types literal text (no key names interpreted). */
  type(text: string): void {
    this.tmux(["send-keys", "-t", this.target, "-l", text]);
  }

  /** Presses keys by tmux name: Enter, C-c, Escape, Up… */
  press(...keys: string[]): void {
    this.tmux(["send-keys", "-t", this.target, ...keys]);
  }

  resize(width: number, height: number): void {
    this.tmux(["resize-window", "-t", this.target, "-x", String(width), "-y", String(height)]);
  }

  /** Polls until `check` holds for the screen (or the whole history), or throws at the deadline. */
  async waitFor(
    check: (text: string) => boolean,
    opts: { timeoutMs?: number; what?: string; history?: boolean } = {},
  ): Promise<string> {
    const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
    let text = "";
    while (Date.now() < deadline) {
      text = opts.history ? this.all() : this.screen();
      if (check(text)) return text;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${opts.what ?? "the screen"}; last screen:\n${text}`);
  }

  /** The pane's process and every process under it (Keel, its hooks), read from /proc. */
  private processTree(): number[] {
    let root: number;
    try {
      root = Number(this.tmux(["display-message", "-p", "-t", this.target, "#{pane_pid}"]).trim());
    } catch {
      return [];
    }
    const children = new Map<number, number[]>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // The parent pid is the 4th field after the command's closing parenthesis.
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
      } catch {
        // gone meanwhile
      }
    }
    const out: number[] = [];
    const walk = (pid: number) => {
      out.push(pid);
      for (const c of children.get(pid) ?? []) walk(c);
    };
    if (Number.isInteger(root) && root > 0) walk(root);
    return out;
  }

  /**
   * Kills the tmux server and waits (up to 15 s) until the program and its children have
   * exited: a Keel still writing its compile cache at exit must not race the test's cleanup of
   * its KEEL_HOME (ENOTEMPTY under load).
   */
  async closeAndWait(): Promise<void> {
    const pids = this.processTree();
    this.close();
    const deadline = Date.now() + 15_000;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (pids.some(alive) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Kills the tmux server (and with it the program). */
  close(): void {
    try {
      this.tmux(["kill-server"]);
    } catch {
      // already gone
    }
  }
}
