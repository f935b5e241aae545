/** The session layer's public surface: transcripts, usage log, hook audit. */
export { withoutAddedContext } from "./added-context.js";
export {
  type CheckpointEntry,
  CheckpointStore,
  checkpointsDirFor,
  type RestoreReport,
} from "./checkpoints.js";
export {
  appendHookAudit,
  type HookAuditRecord,
  type HookRunInput,
  type HookStats,
  hookStatsFromAudit,
  percentile,
  readHookAudit,
  summarizeHookRuns,
} from "./hook-audit.js";
export {
  latestSession,
  listSessions,
  loadSession,
  openSession,
  resolveSessionId,
  type SessionSummary,
  type UnreadableSession,
} from "./list.js";
export {
  type LoadedEvent,
  type LoadedSession,
  liveEntries,
  liveMessages,
  liveState,
  readSessionFile,
  SessionError,
} from "./load.js";
export { lockPathFor, lockSessionFile, type SessionLock, SessionLockedError } from "./lock.js";
export {
  hookAuditPath,
  hooksPathFor,
  keelHomeFrom,
  projectKey,
  projectSessionsDir,
  sessionsRoot,
  usageLogPath,
} from "./paths.js";
export {
  COMPACTION_EVENT,
  type MessageMeta,
  REWIND_EVENT,
  SESSION_TITLE_EVENT,
  type SessionEventInput,
  type SessionMeta,
  SHELL_CWD_EVENT,
  type UsageInput,
  type UsageRecord,
} from "./records.js";
export {
  createSession,
  reopenSession,
  type SessionHandle,
  type SessionWriteOptions,
} from "./store.js";
export {
  appendUsage,
  readUsage,
  startOfToday,
  sumUsage,
  type UsageStats,
  type UsageTotals,
  usageStats,
} from "./usage.js";
export { UsageLogError } from "./usage-log-error.js";
