/**
 * `keel run --json-schema FILE`: the answer as a JSON value checked against a JSON Schema, as
 * Claude Code's headless mode returns it in `structured_output`. The model is asked in the user
 * turn (appended to the prompt, never in the system prompt, so the cached prefix stays
 * byte-stable), its final answer parsed and validated, one repair turn asked on failure, then
 * the run fails naming what did not match.
 *
 * Validation is zod's JSON Schema reader (`z.fromJSONSchema`, zod is already a dependency):
 * draft 2020-12, 7 and 4 keywords; a keyword it cannot read makes the schema file an error up
 * front rather than a check that silently passes.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type ZodType, z } from "zod";
import type { AgentEvent } from "../../agent/index.js";
import { UserError } from "../user-error.js";

/** A loaded output schema. */
export interface OutputSchema {
  /** The file as given (named in every error). */
  file: string;
  /** The schema's JSON text, compact, as the model is shown it. */
  text: string;
  validator: ZodType;
}

/** Schema files larger than this are refused (a schema is not a data file). */
const MAX_SCHEMA_BYTES = 256 * 1024;

/** Reads and checks the schema file; a UserError naming the file when it cannot be used. */
export async function loadOutputSchema(file: string): Promise<OutputSchema> {
  let raw: string;
  try {
    const buf = await readFile(resolve(file));
    if (buf.length > MAX_SCHEMA_BYTES) {
      throw new UserError(`--json-schema ${file}: larger than ${MAX_SCHEMA_BYTES / 1024} KiB`);
    }
    raw = buf.toString("utf8");
  } catch (err) {
    if (err instanceof UserError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : (err as Error).message;
    throw new UserError(`--json-schema ${file}: ${why}`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(raw);
  } catch (err) {
    throw new UserError(`--json-schema ${file}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UserError(`--json-schema ${file}: a JSON Schema must be an object`);
  }
  let validator: ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (err) {
    throw new UserError(
      `--json-schema ${file}: not a usable JSON Schema: ${(err as Error).message}`,
    );
  }
  return { file, text: JSON.stringify(schema), validator };
}

/** What is appended to the prompt: the schema and how to answer. */
export function schemaInstruction(schema: OutputSchema): string {
  return [
    "",
    "",
    "<output-format>",
    "When you are done, reply with only a JSON value that matches this JSON Schema: no prose before or after it, no Markdown fence.",
    schema.text,
    "</output-format>",
  ].join("\n");
}

/** The repair turn's prompt: what was wrong with the last answer. */
export function repairPrompt(schema: OutputSchema, problems: string): string {
  return [
    `Your last answer is not valid for the requested output format: ${problems}.`,
    "Reply again with only a JSON value that matches this JSON Schema: no prose, no Markdown fence.",
    schema.text,
  ].join("\n");
}

/** The checked value, or what is wrong with the answer (one line). */
export type StructuredCheck = { ok: true; value: unknown } | { ok: false; problems: string };

/** Parses an answer (a ```json fence around it is tolerated) and validates it. */
export function checkStructured(schema: OutputSchema, answer: string): StructuredCheck {
  const text = unfenced(answer.trim());
  if (text === "") return { ok: false, problems: "the answer is empty, not JSON" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: `the answer is not JSON (${(err as Error).message})` };
  }
  const parsed = schema.validator.safeParse(value);
  if (parsed.success) return { ok: true, value };
  const problems = parsed.error.issues
    .slice(0, 10)
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
  return { ok: false, problems };
}

/** The inside of one Markdown code fence that is the whole answer; else the answer. */
function unfenced(text: string): string {
  const m = /^```[a-zA-Z]*\n([\s\S]*?)\n?```$/.exec(text);
  return m?.[1]?.trim() ?? text;
}

/** What the run's structured output came to: the value, a failure (one line), or nothing to
 *  check (the turn itself failed, which the run reports already). */
export type StructuredResult = { value: unknown } | { failure: string } | null;

/**
 * Checks the finished turn's answer and, when it does not match, asks once more in a repair turn
 * whose events go through `track` like the first turn's. `answer` reads the latest outcome.
 */
export async function settleStructured(o: {
  schema: OutputSchema;
  answer: () => { result: string; failure: string | null };
  runTurn: (prompt: string) => AsyncIterable<AgentEvent>;
  track: (ev: AgentEvent) => void;
}): Promise<StructuredResult> {
  let outcome = o.answer();
  if (outcome.failure !== null) return null;
  const first = checkStructured(o.schema, outcome.result);
  if (first.ok) return { value: first.value };
  for await (const ev of o.runTurn(repairPrompt(o.schema, first.problems))) o.track(ev);
  outcome = o.answer();
  if (outcome.failure !== null) return null;
  const second = checkStructured(o.schema, outcome.result);
  if (second.ok) return { value: second.value };
  return {
    failure: `--json-schema ${o.schema.file}: the answer does not match the schema after one repair request: ${second.problems}`,
  };
}
