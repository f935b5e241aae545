/**
 * Prompt history that outlives the process: ↑ in a new `keel` finds what was typed in this
 * project before. One JSON line per prompt in `$KEEL_HOME/history.jsonl` (mode 0600: prompts can
 * hold anything), trimmed to the newest entries when it grows. Never throws: a history that
 * cannot be read or written only costs the convenience.
 */
import { appendFileSync, chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * One history line's project and prompt, or null. Checked by hand, not with zod: the history is
 * read for the TUI's first frame.
 */
function parseLine(raw: string): { project: string; text: string } | null {
  const value: unknown = JSON.parse(raw);
  if (typeof value !== "object" || value === null) return null;
  const project: unknown = Reflect.get(value, "project");
  const text: unknown = Reflect.get(value, "text");
  return typeof project === "string" && typeof text === "string" ? { project, text } : null;
}

/** Where prompts are remembered. */
export interface PromptHistory {
  /** This project's prompts, oldest first (at most `limit`). */
  load(): string[];
  /** Remembers one submitted prompt. Must not throw. */
  append(text: string): void;
}

/** Options of {@link createPromptHistory}. */
export interface PromptHistoryOptions {
  keelHome: string;
  projectDir: string;
  /** Prompts offered per project (default 200). */
  limit?: number;
  /** File size that triggers trimming to the newest `keepLines` (default 1 MiB). */
  maxBytes?: number;
  keepLines?: number;
}

/** The history file of a Keel home. */
export function createPromptHistory(opts: PromptHistoryOptions): PromptHistory {
  const path = join(opts.keelHome, "history.jsonl");
  const limit = opts.limit ?? 200;
  const readLines = (): string[] => {
    try {
      return readFileSync(path, "utf8").split("\n");
    } catch {
      return [];
    }
  };
  return {
    load() {
      const prompts: string[] = [];
      for (const raw of readLines()) {
        if (raw.trim() === "") continue;
        try {
          const parsed = parseLine(raw);
          if (parsed && parsed.project === opts.projectDir) {
            if (prompts[prompts.length - 1] !== parsed.text) prompts.push(parsed.text);
          }
        } catch {
          // A torn line (a crash mid-write) is skipped.
        }
      }
      return prompts.slice(-limit);
    },
    append(text) {
      if (text.trim() === "") return;
      try {
        appendFileSync(path, `${JSON.stringify({ project: opts.projectDir, text })}\n`, {
          mode: 0o600,
        });
        if (statSync(path).size > (opts.maxBytes ?? 1024 * 1024)) {
          const kept = readLines()
            .filter((l) => l.trim() !== "")
            .slice(-(opts.keepLines ?? 2000));
          writeFileSync(path, `${kept.join("\n")}\n`, { mode: 0o600 });
          chmodSync(path, 0o600);
        }
      } catch {
        // Not remembered; the prompt itself was sent.
      }
    },
  };
}
