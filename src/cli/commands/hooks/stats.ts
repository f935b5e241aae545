/**
 * `keel hooks stats`: per-hook counts and durations from the hook audit log
 * (`$KEEL_HOME/hooks-audit.jsonl`), for the current project unless `--all`.
 */
import { sanitizeJson } from "../../../base/index.js";
import { HOOK_EVENTS } from "../../../hooks/index.js";
import {
  type HookStats,
  hookAuditPath,
  readHookAudit,
  summarizeHookRuns,
} from "../../../session/index.js";
import { displayPath, pad, plural, truncate, wrap } from "../../format/text.js";
import { keelHomeDir, type Output, resolveProjectDir } from "./shared.js";

/** Options of `keel hooks stats`. */
export interface HooksStatsOptions {
  json?: boolean;
  all?: boolean;
  session?: string;
  cwd?: string;
}

/** Keeps the end of a command (the script name is the informative part). */
function truncateStart(text: string, width: number): string {
  const chars = [...text.replace(/\s+/g, " ")];
  return chars.length <= width
    ? chars.join("")
    : `…${chars.slice(chars.length - width + 1).join("")}`;
}

function ms(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}s` : `${Math.round(n)}ms`;
}

const NUMBER_COLS = ["runs", "block", "warn", "err", "t/o"] as const;
const TIME_COLS = ["p50", "p95", "max"] as const;
const HOOK_WIDTH = 26;

function row(label: string, numbers: string[], times: string[]): string {
  return (
    `  ${pad(label, HOOK_WIDTH)}` +
    numbers.map((n) => n.padStart(5)).join(" ") +
    times.map((t) => t.padStart(7)).join("")
  );
}

/** The text table: one block per event, one row per hook, fits 80 columns. */
export function renderStats(stats: readonly HookStats[]): string[] {
  const out = [row("hook", [...NUMBER_COLS], [...TIME_COLS])];
  let event = "";
  for (const s of stats) {
    if (s.event !== event) {
      event = s.event;
      out.push(truncate(event, 80));
    }
    out.push(
      row(
        truncateStart(s.command, HOOK_WIDTH - 1),
        [s.runs, s.blocks, s.warnings, s.errors, s.timeouts].map(String),
        [s.p50Ms, s.p95Ms, s.maxMs].map(ms),
      ),
    );
  }
  return out;
}

/** Events in the order a session meets them; hooks within one in the order they first ran. */
function lifecycleOrder(
  stats: HookStats[],
  runs: readonly { hookId: string; event: string }[],
): HookStats[] {
  const firstRun = new Map<string, number>();
  runs.forEach((r, i) => {
    const key = `${r.event}\0${r.hookId}`;
    if (!firstRun.has(key)) firstRun.set(key, i);
  });
  const eventIndex = (e: string) => {
    const i = (HOOK_EVENTS as readonly string[]).indexOf(e);
    return i === -1 ? HOOK_EVENTS.length : i;
  };
  const runIndex = (s: HookStats) => firstRun.get(`${s.event}\0${s.hookId}`) ?? 0;
  return [...stats].sort(
    (a, b) => eventIndex(a.event) - eventIndex(b.event) || runIndex(a) - runIndex(b),
  );
}

/** Runs `keel hooks stats`; returns the exit status. */
export async function runHooksStats(opts: HooksStatsOptions, out: Output): Promise<number> {
  const projectDir = await resolveProjectDir(opts.cwd);
  const keelHome = keelHomeDir();
  const { records, skippedLines } = readHookAudit({ keelHome, sessionId: opts.session });
  const mine = opts.all === true ? records : records.filter((r) => r.projectDir === projectDir);
  const stats = lifecycleOrder(summarizeHookRuns(mine), mine);
  if (opts.json === true) {
    out.stdout(`${sanitizeJson({ projectDir: opts.all ? null : projectDir, hooks: stats })}\n`);
    return 0;
  }
  const where = opts.all === true ? "all projects" : projectDir;
  const log = displayPath(hookAuditPath(keelHome));
  if (stats.length === 0) {
    out.stdout(`No hook runs recorded for ${where} in ${log}.\n`);
  } else {
    const title = `Hook runs for ${where}: ${plural(mine.length, "run")}, from ${log}`;
    out.stdout(`${wrap(title, { breakLongWords: true }).join("\n")}\n\n`);
    out.stdout(`${renderStats(stats).join("\n")}\n`);
  }
  if (skippedLines > 0)
    out.stderr(`keel: skipped ${plural(skippedLines, "unreadable line")} in ${log}\n`);
  return 0;
}
