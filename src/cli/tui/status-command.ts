/**
 * Claude Code's `statusLine` setting: a command of the user's that gets the session's state as
 * JSON on stdin and whose first line of output is shown under the prompt, above Keel's own
 * status line (which it does not replace).
 *
 * Only the user's own files count (`$KEEL_HOME/settings.json`, then `~/.claude/settings.json`):
 * the command runs after every reply, so a repository's `statusLine` would be a way to run its
 * code that no hook trust covers. A project file's is named in a notice instead (Claude Code
 * runs it once the workspace is trusted; Keel's trust pins hooks, not this). `disableAllHooks`
 * in the same user file turns it off, as in Claude Code.
 *
 * The command starts through the hooks' process runner (hooks/process.ts: its own process
 * group, capped output, a kill path) with the child environment every Keel process gets
 * (base/child-env.ts), so it adds no place that starts processes.
 */
import { join } from "node:path";
import { buildChildEnv, isRecord, readConfigTextSync, sanitize } from "../../base/index.js";

/** A status command the user configured, and the file it came from. */
export interface StatusCommand {
  command: string;
  file: string;
}

/** What the user's settings say, and what to tell them about it. */
export interface StatusCommandSetup {
  command: StatusCommand | null;
  notices: string[];
}

/** What is wrong with a `statusLine` value (field and problem), or its command. Checked by hand:
 *  this runs before the TUI's first frame, which zod would delay (test/cli/lazy-start.test.ts). */
function checkSetting(value: unknown): { command: string } | { field: string; problem: string } {
  if (!isRecord(value)) return { field: "statusLine", problem: "must be an object" };
  if (value.type !== "command") {
    return { field: "statusLine.type", problem: 'must be "command" (the only kind there is)' };
  }
  if (typeof value.command !== "string" || value.command.trim() === "") {
    return { field: "statusLine.command", problem: "must be a non-empty string" };
  }
  return { command: value.command };
}

/** How long one run may take before it is killed and the line left as it was. */
export const STATUS_TIMEOUT_MS = 3_000;

/** Reads the status command from the user's settings; project files are only named. */
export function readStatusCommand(paths: {
  keelHome: string;
  homeDir: string;
  projectDir: string;
}): StatusCommandSetup {
  const notices: string[] = [];
  let command: StatusCommand | null = null;
  for (const file of [
    join(paths.keelHome, "settings.json"),
    join(paths.homeDir, ".claude", "settings.json"),
  ]) {
    const settings = readJsonObject(file);
    if (settings?.statusLine === undefined) continue;
    if (settings.disableAllHooks === true) return { command: null, notices };
    const checked = checkSetting(settings.statusLine);
    if ("problem" in checked) {
      notices.push(`${file}: ${checked.field} ${checked.problem}; no custom status line`);
      return { command: null, notices };
    }
    command = { command: checked.command, file };
    break;
  }
  for (const name of ["settings.json", "settings.local.json"]) {
    for (const dir of [".claude", ".keel"]) {
      const file = join(paths.projectDir, dir, name);
      if (readJsonObject(file)?.statusLine !== undefined) {
        notices.push(
          `${file}: statusLine is not run: a project's command would run after every reply ` +
            "without trust; copy it into your own ~/.claude/settings.json to use it",
        );
      }
    }
  }
  return { command, notices };
}

/** The file's top-level object, or null. A malformed file is reported by the hooks' and the
 *  permission rules' readers of the same file; saying it a third time here adds nothing. */
function readJsonObject(file: string): Record<string, unknown> | null {
  const { content } = readConfigTextSync(file);
  if (content === null) return null;
  try {
    const value: unknown = JSON.parse(content);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** The session's state as Claude Code hands it to a status command (the fields Keel knows). */
export interface StatusInput {
  sessionId: string;
  transcriptPath: string;
  projectDir: string;
  model: string;
  version: string;
  costUsd: number;
  durationMs: number;
  inputTokens: number;
  outputTokens: number;
}

/** The JSON written to the command's stdin, in Claude Code's shape. */
export function statusPayload(s: StatusInput): string {
  return JSON.stringify({
    hook_event_name: "Status",
    session_id: s.sessionId,
    transcript_path: s.transcriptPath,
    cwd: s.projectDir,
    model: { id: s.model, display_name: s.model },
    workspace: { current_dir: s.projectDir, project_dir: s.projectDir },
    version: s.version,
    output_style: { name: "default" },
    cost: { total_cost_usd: s.costUsd, total_duration_ms: s.durationMs },
    context_window: { total_input_tokens: s.inputTokens, total_output_tokens: s.outputTokens },
  });
}

/** Colour and style (SGR) sequences: the only escapes a status line may keep. */
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * The line to show: the first line of `stdout`, its SGR colours kept and every other control
 * character made visible (a branch name or a file the command prints is repository text, and
 * an OSC or a cursor move from it must not drive the terminal).
 */
export function statusDisplay(stdout: string): string {
  const first = stdout.split(/\r?\n/, 1)[0] ?? "";
  const parts = first.split(SGR);
  const colours = first.match(SGR) ?? [];
  let out = "";
  parts.forEach((part, i) => {
    out += sanitize(part);
    if (i < colours.length) out += colours[i];
  });
  // A colour left open would tint whatever Ink draws next on the line.
  return colours.length > 0 ? `${out}\x1b[0m` : out;
}

/**
 * Runs the command once. Null when it failed, timed out or printed nothing: Claude Code blanks
 * the line then, and so does Keel.
 */
export async function runStatusCommand(
  cmd: StatusCommand,
  payload: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<string | null> {
  // The hooks' runner is loaded with the first run, after the first frame (lazy-start.test.ts).
  const { runProcess } = await import("../../hooks/index.js");
  const result = await runProcess({
    command: cmd.command,
    cwd: opts.cwd,
    env: buildChildEnv(opts.env),
    stdin: payload,
    timeoutMs: STATUS_TIMEOUT_MS,
    maxOutputBytes: 64 * 1024,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (result.exitCode !== 0 || result.timedOut || result.cancelled) return null;
  const line = statusDisplay(result.stdout);
  return line.replace(SGR, "").trim() === "" ? null : line;
}
