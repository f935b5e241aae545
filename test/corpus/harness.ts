/**
 * The hook corpus harness: each case copies a fixture project (the dialect's settings file in its
 * real place plus the hook scripts) into a temp project with its own HOME and KEEL_HOME, trusts it
 * and fires the event through the built CLI (`bin/keel.js hooks test … --json`), as a user would.
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The dialects the corpus covers. */
export type Dialect =
  | "claude"
  | "plugin"
  | "reasonix"
  | "reasonix1"
  | "cagent"
  | "tutorial"
  | "gemini"
  | "qwen"
  | "codex";

/** What `keel hooks test --json` printed, plus its exit status and stderr. */
export interface HooksTestResult {
  code: number;
  stderr: string;
  json: {
    event: string;
    decision: string;
    reason: string | null;
    updatedInput: Record<string, unknown> | null;
    additionalContext: string | null;
    systemMessages: string[];
    continue: boolean;
    runs: Array<{
      dialect: string;
      outcome: string;
      exitCode: number | null;
      stdout: string;
      stderr: string;
    }>;
  };
}

/** What a user can observe after the event: the decision and any files the hook wrote. */
export interface Expectation {
  /** `keel hooks test` exit status: 0 pass/allow/ask, 2 deny/block. */
  exit: 0 | 2;
  decision: string;
  /** Substrings the reason must contain. */
  reason?: string[];
  updatedInput?: Record<string, unknown>;
  /** Substrings the additional context must contain. */
  context?: string[];
  /** The hooks add no context at all (a dialect whose agent does not read it). */
  noContext?: true;
  /** Substrings one of the systemMessages must contain. */
  systemMessage?: string;
  continue?: boolean;
  /** Every run's outcome, in configuration order. */
  outcomes?: string[];
  /** Files (relative to the project, or `~/` for HOME) and substrings they must contain after. */
  files?: Record<string, string[]>;
  /** Files (relative to the project) whose content must equal this exactly after. */
  exactFiles?: Record<string, string>;
}

/** One corpus entry: a fixture project, the event fired at it and what the user observes. */
export interface CorpusCase {
  /** Short title. */
  name: string;
  dialect: Dialect;
  /** Fixture directory under test/corpus/fixtures/<dialect>/. */
  fixture: string;
  /** The kind of public hook it mirrors (no URLs). */
  mirrors: string;
  event: string;
  /** Keel's tool name (`--tool`); the hook sees its own dialect's name. */
  tool?: string;
  /** Keel's input fields (`--input`); paths relative to the project are fine. */
  input?: Record<string, unknown>;
  prompt?: string;
  /** Extra payload fields; a function gets the temp project's absolute path. */
  payload?: Record<string, unknown> | ((project: string) => Record<string, unknown>);
  /** Files to write into the project before firing (relative path → content). */
  setup?: Record<string, string> | ((project: string) => Record<string, string>);
  expect: Expectation;
  /** Extra environment for Keel (and so the hooks), e.g. `SHELL`. */
  env?: Record<string, string>;
  /** A known Keel bug: the case asserts the correct behaviour and is expected to fail. */
  fails?: string;
  /** Cannot run yet (e.g. the dialect is not in Keel yet): why. */
  todo?: string;
}

/** The Keel checkout under test: this one, or another's (`KEEL_CORPUS_CHECKOUT=/path`). */
export const CHECKOUT = process.env.KEEL_CORPUS_CHECKOUT ?? resolve(__dirname, "../..");
const FIXTURES = resolve(__dirname, "fixtures");
/** The built CLI (`npm run build`). */
export const KEEL_BIN = join(CHECKOUT, "bin", "keel.js");

/** A temp project made from a fixture, with its own HOME and KEEL_HOME. */
export interface CorpusProject {
  root: string;
  project: string;
  home: string;
  env: NodeJS.ProcessEnv;
  dispose(): void;
}

function makeExecutable(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeExecutable(path);
    else if (/\.(sh|py|mjs|js|cjs)$/.test(entry.name)) chmodSync(path, 0o755);
  }
}

/** Copies `fixtures/<dialect>/<name>` into a fresh temp project (scripts made executable). */
export function corpusProject(
  dialect: Dialect,
  name: string,
  extraEnv: NodeJS.ProcessEnv = {},
): CorpusProject {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `keel-corpus-${dialect}-`)));
  const project = join(root, "project");
  const home = join(root, "home");
  const keelHome = join(root, "keel-home");
  cpSync(join(FIXTURES, dialect, name), project, { recursive: true });
  // A fixture's `_home/` holds files of the user's home (e.g. an installed plugin).
  if (existsSync(join(project, "_home"))) {
    cpSync(join(project, "_home"), home, { recursive: true });
    rmSync(join(project, "_home"), { recursive: true });
  }
  makeExecutable(project);
  mkdirSync(home, { recursive: true });
  makeExecutable(home);
  mkdirSync(keelHome, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, KEEL_HOME: keelHome, ...extraEnv };
  for (const key of Object.keys(env))
    if (key.startsWith("VITEST") || key === "NODE_OPTIONS") delete env[key];
  return {
    root,
    project,
    home,
    env,
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs the built `keel` with `args` in `p`'s environment. */
export function keelCli(
  p: CorpusProject,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [KEEL_BIN, ...args],
      { cwd: p.project, env: p.env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** `keel hooks trust` for the project; throws with the CLI's words if it fails. */
export async function trust(p: CorpusProject): Promise<void> {
  const r = await keelCli(p, ["hooks", "trust", "--cwd", p.project]);
  if (r.code !== 0) throw new Error(`keel hooks trust failed (${r.code}): ${r.stderr}${r.stdout}`);
}

/** The arguments of `keel hooks test … --json` that fire the case's event in `p`. */
export function hooksTestArgs(c: CorpusCase, p: CorpusProject): string[] {
  const args = ["hooks", "test", c.event, "--json", "--cwd", p.project];
  if (c.tool !== undefined) args.push("--tool", c.tool);
  if (c.input !== undefined) args.push("--input", JSON.stringify(c.input));
  if (c.prompt !== undefined) args.push("--prompt", c.prompt);
  const payload = typeof c.payload === "function" ? c.payload(p.project) : c.payload;
  if (payload !== undefined) args.push("--payload", JSON.stringify(payload));
  return args;
}

/** What `keel hooks test --json` printed, read; throws with its words if it printed no JSON. */
export function readHooksTest(r: {
  code: number;
  stdout: string;
  stderr: string;
}): HooksTestResult {
  let json: HooksTestResult["json"];
  try {
    json = JSON.parse(r.stdout);
  } catch {
    throw new Error(`keel hooks test printed no JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  return { code: r.code, stderr: r.stderr, json };
}

/** Fires the case's event through `keel hooks test --json` in its trusted temp project. */
export async function fireCase(c: CorpusCase, p: CorpusProject): Promise<HooksTestResult> {
  return readHooksTest(await keelCli(p, hooksTestArgs(c, p)));
}
