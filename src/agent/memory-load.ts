/**
 * Loading project memory into a session: read the files, fire InstructionsLoaded for each, report
 * them as a `memory_loaded` event, and queue the block for the next user message.
 */
import type { AgentCore } from "./core.js";
import type { AgentEvent } from "./events.js";
import { fireHook } from "./hook-adapter/fire.js";
import { loadMemory, type MemoryOptions, type MemoryReport, memoryBlock } from "./memory.js";

/** Reads memory without queueing it (a resumed session), for compactions to put back. */
export function rememberMemory(core: AgentCore, opts: MemoryOptions): MemoryReport {
  let report: MemoryReport;
  try {
    report = loadMemory(opts);
  } catch {
    return { files: [], skipped: [] };
  }
  core.memoryText = memoryBlock(report);
  core.memoryFiles = report.files.map((f) => ({
    path: f.path,
    scope: f.scope,
    importedBy: f.importedBy,
  }));
  return report;
}

/** Reads memory and queues it; returns the report (for `/memory`). Never throws. */
export async function* loadSessionMemory(
  core: AgentCore,
  opts: MemoryOptions,
  reason: "session_start" | "compact",
  signal?: AbortSignal,
): AsyncGenerator<AgentEvent, MemoryReport> {
  let report: MemoryReport;
  try {
    report = loadMemory(opts);
  } catch (err) {
    yield { type: "notice", level: "warn", text: `Memory files not loaded: ${String(err)}` };
    return { files: [], skipped: [] };
  }
  core.memoryText = memoryBlock(report);
  core.memoryFiles = report.files.map((f) => ({
    path: f.path,
    scope: f.scope,
    importedBy: f.importedBy,
  }));
  core.addPreamble(core.memoryText);
  if (report.files.length === 0 && report.skipped.length === 0) return report;
  yield {
    type: "memory_loaded",
    files: report.files.map((f) => ({
      path: f.path,
      label: f.label,
      scope: f.scope,
      bytes: Buffer.byteLength(f.content),
      importedBy: f.importedBy,
    })),
    skipped: report.skipped.map((s) => ({ ...s })),
  };
  yield* fireInstructionsLoaded(core, reason, signal);
  for (const s of report.skipped) {
    yield {
      type: "notice",
      level: "warn",
      text: `Memory import ${s.path} skipped: ${s.reason}`,
    };
  }
  return report;
}

/** Fires InstructionsLoaded for each memory file of the session (imports as `include`). */
export async function* fireInstructionsLoaded(
  core: AgentCore,
  reason: "session_start" | "compact",
  signal?: AbortSignal,
): AsyncGenerator<AgentEvent> {
  for (const f of core.memoryFiles) {
    yield* fireHook(
      core.hooks,
      core.info,
      "InstructionsLoaded",
      {
        file_path: f.path,
        memory_type: f.scope === "user" ? "User" : "Project",
        load_reason: f.importedBy !== null ? "include" : reason,
        ...(f.importedBy !== null ? { parent_file_path: f.importedBy } : {}),
      },
      signal,
    );
  }
}
