/**
 * The session settings of issue 11 in Keel's settings files (`$KEEL_HOME/settings.json`,
 * `.keel/settings.json`, `.keel/settings.local.json`; later files win per field):
 *   {"compaction": {"auto": true, "thresholdTokens": N, "toolResultMaxChars": N},
 *    "subagents": {"tools": ["read_file", …], "maxTurns": N, "model": "…"}}
 * Other keys (hooks, …) belong to other readers. Never throws: a bad file is a warning naming
 * the file and field, and its values are ignored.
 */
import { join } from "node:path";
import { z } from "zod";
import { readConfigTextSync } from "../base/index.js";
import { parseSettingsJson } from "../hooks/index.js";

const compaction = z
  .object({
    auto: z.boolean().optional(),
    thresholdTokens: z.int().positive().optional(),
    toolResultMaxChars: z.int().positive().optional(),
  })
  .optional();

const subagents = z
  .object({
    tools: z.array(z.string().min(1)).optional(),
    maxTurns: z.int().min(1).max(200).optional(),
    model: z.string().min(1).optional(),
  })
  .optional();

const fileSchema = z.object({ compaction, subagents });

/** The merged settings. */
export interface SessionSettings {
  compaction: { auto?: boolean; thresholdTokens?: number; toolResultMaxChars?: number };
  subagents: { tools?: string[]; maxTurns?: number; model?: string };
}

/** Reads and merges the settings files. */
export function loadSessionSettings(opts: { projectDir: string; keelHome?: string }): {
  settings: SessionSettings;
  warnings: string[];
} {
  const settings: SessionSettings = { compaction: {}, subagents: {} };
  const warnings: string[] = [];
  const files = [
    ...(opts.keelHome !== undefined ? [join(opts.keelHome, "settings.json")] : []),
    join(opts.projectDir, ".keel", "settings.json"),
    join(opts.projectDir, ".keel", "settings.local.json"),
  ];
  for (const path of files) {
    // Only a regular file is read (a FIFO named like a settings file must not hang Keel); the
    // hooks reader lists a file it refuses, so it is skipped quietly here.
    const text = readConfigTextSync(path).content;
    if (text === null) continue;
    let raw: unknown;
    try {
      raw = parseSettingsJson(text);
    } catch {
      continue; // The hooks reader reports unparsable settings files; once is enough.
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.map(String).join(".") ?? "";
      warnings.push(`${path}: ${field}: ${issue?.message ?? "invalid"} (ignored)`);
      continue;
    }
    const chosen = { ...parsed.data.subagents };
    // The model sets the price of every sub-agent request (and which model sees the code): a
    // clone's `.keel/settings.json` does not get to choose it for the user (attacks5/48).
    if (path !== files[0] || opts.keelHome === undefined) {
      if (chosen.model !== undefined) {
        warnings.push(
          `${path}: subagents.model: a project may not choose the sub-agents' model (it sets what they cost); the session's model is used. Set it in your own settings.json to choose one. (ignored)`,
        );
        delete chosen.model;
      }
    }
    Object.assign(settings.compaction, parsed.data.compaction ?? {});
    Object.assign(settings.subagents, chosen);
  }
  return { settings, warnings };
}
