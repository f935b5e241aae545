/** Turning one headless CLI run into the Observation both sides of a case are compared by. */
import { modelItemsFromChat } from "./model-view.js";
import { type CaseDirs, projectFiles, readRecords } from "./project.js";
import type { Observation } from "./types.js";

/**
 * The `result` of a `--output-format json` run (one object, Qwen Code's array of events ending
 * in `{type: "result"}`, Gemini CLI's `{response}`), or its stdout as printed (a blocked prompt).
 */
export function resultText(stdout: string): string {
  const printed = stdout.trim();
  try {
    const parsed = JSON.parse(printed) as unknown;
    const events = Array.isArray(parsed) ? parsed : [parsed];
    for (const e of events.toReversed()) {
      // Claude and Qwen say `result`, Gemini CLI says `response`.
      const o = e as { result?: unknown; response?: unknown } | null;
      if (typeof o?.result === "string") return o.result;
      if (typeof o?.response === "string") return o.response;
    }
  } catch {
    // Plain text: compared as printed.
  }
  return printed;
}

/** What a run against the DeepSeek simulator showed: exit, result, hook records, model view, files. */
export function chatObservation(o: {
  run: { code: number; stdout: string };
  dirs: CaseDirs;
  requests: ReadonlyArray<{
    status: number;
    messages: ReadonlyArray<{ role: string; content?: unknown }>;
  }>;
  notes: string[];
}): Observation {
  return {
    exitCode: o.run.code,
    result: resultText(o.run.stdout),
    hooks: readRecords(o.dirs),
    modelView: o.requests
      .filter((r) => r.status === 200)
      .map((r) => modelItemsFromChat(r.messages)),
    files: projectFiles(o.dirs),
    paths: { root: o.dirs.root, project: o.dirs.project, home: o.dirs.home },
    notes: o.notes,
  };
}
