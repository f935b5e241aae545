/**
 * The line types of a session file and their schemas. A message line is written as
 * `{"type":"message","turn":N,"m":<rendered>}` so the rendered bytes can be sliced back out
 * exactly; everything else is plain JSON.
 */
import { z } from "zod";

/** The first line of every session file. */
export const sessionMetaSchema = z.object({
  type: z.literal("session"),
  id: z.string().min(1),
  projectDir: z.string().min(1),
  createdAt: z.string(),
  model: z.string(),
  /** Format version of the file. */
  v: z.number().int().optional(),
});
export type SessionMeta = z.infer<typeof sessionMetaSchema>;

/** What a message line carries besides the rendered message. */
export interface MessageMeta {
  turn: number;
}

/** An event line: `kind` says what happened (`compaction`, `turn_start`, `turn_end`, …). */
export interface SessionEventInput {
  kind: string;
  [key: string]: unknown;
}

/** The event kind that names the session (a hook's `sessionTitle`); the last one counts. */
export const SESSION_TITLE_EVENT = "title";

/** The event kind after which only later messages are live (the one sanctioned rewrite). */
export const COMPACTION_EVENT = "compaction";

/** The event kind that drops the messages of user turns >= `toTurn` written before it (a
 *  rewind): appended, never an edit of earlier bytes. */
export const REWIND_EVENT = "rewind";

/** The event kind that records where the shell's working directory moved (`cwd`, during user
 *  turn `turn`): a resumed session starts there (src/agent/pipeline/shell-cwd.ts). */
export const SHELL_CWD_EVENT = "shell_cwd";

export const eventLineSchema = z.looseObject({
  type: z.literal("event"),
  kind: z.string(),
  ts: z.string().optional(),
});

export const messageLineSchema = z.object({
  type: z.literal("message"),
  turn: z.number().int().min(0),
  m: z.unknown(),
});

/** One model request's token counts and cost, as the llm layer computed them. */
export const usageRecordSchema = z.object({
  ts: z.string(),
  sessionId: z.string(),
  projectDir: z.string(),
  model: z.string(),
  promptTokens: z.number(),
  cacheHitTokens: z.number(),
  cacheMissTokens: z.number(),
  completionTokens: z.number(),
  costUsd: z.number(),
  costWithoutCacheUsd: z.number(),
  /** Answered by Keel's simulator: counted apart in `keel stats`. */
  simulated: z.literal(true).optional(),
});
export type UsageRecord = z.infer<typeof usageRecordSchema>;

/** A usage record before it is stamped: `ts` defaults to now. */
export type UsageInput = Omit<UsageRecord, "ts"> & { ts?: string };

export const usageLineSchema = usageRecordSchema.extend({ type: z.literal("usage") });

const MESSAGE_PREFIX = /^\{"type":"message","turn":(\d+),"m":/;

/** The exact line for a rendered message. */
export function messageLine(rendered: string, meta: MessageMeta): string {
  return `{"type":"message","turn":${meta.turn},"m":${rendered}}`;
}

/** The rendered bytes of a message line written by `messageLine`, or null for any other shape. */
export function sliceRendered(line: string): string | null {
  const m = MESSAGE_PREFIX.exec(line);
  if (!m || !line.endsWith("}")) return null;
  return line.slice(m[0].length, -1);
}
