/**
 * `keel run`'s options and configuration, checked before anything is opened: the flags as
 * given, the pairs that cannot go together, the project folder, config.json and the model.
 * Each mistake is one UserError naming the flag or the file (commands/run.ts).
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { z } from "zod";
import { PERMISSION_MODES } from "../../agent/index.js";
import { EFFORT_LEVELS, type EffortLevel, type LlmConfig, resolveEffort } from "../../llm/index.js";
import { keelHomeFrom } from "../../session/index.js";
import { loadConfig } from "../llm-config.js";
import { UserError } from "../user-error.js";
import { loadOutputSchema, type OutputSchema } from "./run-schema.js";

const optionsSchema = z.object({
  outputFormat: z.enum(["text", "json", "stream-json"]).default("text"),
  yes: z.boolean().default(false),
  model: z.string().min(1).optional(),
  effort: z.enum(EFFORT_LEVELS).optional(),
  maxTurns: z
    .string()
    .regex(/^[1-9]\d*$/, { message: "expected a whole number of at least 1" })
    .transform(Number)
    .optional(),
  continue: z.boolean().default(false),
  resume: z.string().min(1).optional(),
  rewind: z
    .string()
    .regex(/^[1-9]\d*$/, { message: "expected a user turn number of at least 1" })
    .transform(Number)
    .optional(),
  rewindFilesOnly: z.boolean().default(false),
  mode: z.enum(PERMISSION_MODES).optional(),
  cwd: z.string().optional(),
  harvest: z.boolean().default(false),
  init: z.boolean().default(false),
  maintenance: z.boolean().default(false),
  withoutProjectHooks: z.boolean().default(false),
  branch: z
    .string()
    .regex(/^[1-8]$/, { message: "expected a number of samples from 1 to 8" })
    .transform(Number)
    .optional(),
  jsonSchema: z.string().min(1).optional(),
  image: z.array(z.string().min(1)).optional(),
});

/** `keel run`'s flags, checked. */
export type RunOptions = z.infer<typeof optionsSchema>;

/** The flags as commander gave them, checked; the first bad one is named as `--its-name`. */
export function parseRunOptions(raw: Record<string, unknown>): RunOptions {
  const parsed = optionsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? "option").replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const given = issue?.path[0] === undefined ? undefined : raw[String(issue.path[0])];
  const got = typeof given === "string" ? ` (got "${given}")` : "";
  throw new UserError(`--${field}: ${issue?.message ?? "invalid value"}${got}`);
}

/** Flags that make no sense alone or together. */
export function checkOptionPairs(o: RunOptions): void {
  if (o.continue && o.resume !== undefined) {
    throw new UserError("--continue and --resume cannot be used together");
  }
  if (o.rewind !== undefined && o.resume === undefined && !o.continue) {
    throw new UserError("--rewind needs the session to rewind: add --resume ID or --continue");
  }
  if (o.rewindFilesOnly && o.rewind === undefined) {
    throw new UserError("--rewind-files-only needs --rewind N");
  }
  if (o.init && o.maintenance) {
    throw new UserError("--init and --maintenance cannot be used together");
  }
}

/** Where and with what a run starts: the schema asked for, the folders, the model's settings. */
export interface RunSetup {
  readonly outputSchema: OutputSchema | null;
  readonly keelHome: string;
  readonly projectDir: string;
  /** config.json and the environment, with the API key known to be there. */
  readonly llm: LlmConfig & { readonly apiKey: string };
  readonly model: string;
  readonly effort: EffortLevel | undefined;
}

/** Reads --json-schema's file, the project folder and config.json; refuses what cannot run. */
export async function runSetup(o: RunOptions): Promise<RunSetup> {
  const outputSchema = o.jsonSchema === undefined ? null : await loadOutputSchema(o.jsonSchema);
  const keelHome = keelHomeFrom(process.env);
  const projectDir = resolve(o.cwd ?? process.cwd());
  if (!(await stat(projectDir).catch(() => null))?.isDirectory()) {
    throw new UserError(`--cwd: not a directory: ${projectDir}`);
  }
  const config = await loadConfig({ keelHome, env: process.env });
  if (!config.ok) throw new UserError(config.error);
  const llm = config.config;
  if (!llm.apiKey) {
    throw new UserError(
      `no API key: set DEEPSEEK_API_KEY, add "apiKey" to ${llm.path}, or run \`keel\` once to set it up`,
    );
  }
  const model = o.model ?? llm.model;
  // Asked for on the command line, a level the model cannot take stops the run (config.json's
  // applies to every model: the agent says it is not used, and runs).
  if (o.effort !== undefined) {
    const effort = resolveEffort(model, o.effort);
    if (!effort.ok) throw new UserError(`--effort: ${effort.error}`);
  }
  const effort = o.effort ?? llm.effort ?? undefined;
  return { outputSchema, keelHome, projectDir, llm: { ...llm, apiKey: llm.apiKey }, model, effort };
}
