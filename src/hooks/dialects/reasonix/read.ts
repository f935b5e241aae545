/** Reader for Reasonix settings: flat `{match, command, description, timeout(ms), cwd}` entries. */

import { isRecord } from "../../../base/index.js";
import { type ReadContext, zodProblems } from "../../config/handler.js";
import type { FieldPath } from "../../config/positions.js";
import type { ReadResult } from "../../config/read-native.js";
import { reasonixEntrySchema } from "../../config/schema.js";
import {
  nearestField,
  REASONIX_FIELDS,
  unknownFieldWarnings,
} from "../../config/unknown-fields.js";
import { HOOK_EVENTS, isHookEventName } from "../../events.js";
import type { CommandHandlerConfig, HookProblem } from "../../types.js";

/** Timeouts this small in a milliseconds field were almost certainly meant as seconds. */
const SUSPICIOUS_TIMEOUT_MS = 100;

/** Reads a Reasonix `hooks` value. Entries without a command are skipped with a warning. */
export function readReasonixHooks(hooks: unknown, ctx: ReadContext): ReadResult {
  const out: ReadResult = { hooks: [], problems: [] };
  if (hooks === undefined || hooks === null) return out;
  if (!isRecord(hooks)) {
    out.problems.push(ctx.problem("error", ["hooks"], "hooks: expected an object keyed by event"));
    return out;
  }
  for (const [event, entries] of Object.entries(hooks)) {
    const at: FieldPath = ["hooks", event];
    if (!isHookEventName(event)) {
      const near = nearestField(event, HOOK_EVENTS);
      const p = ctx.problem(
        near ? "error" : "warning",
        at,
        `unknown hook event "${event}"; these hooks never run${near ? `; did you mean "${near}"?` : ""}`,
      );
      p.neverRuns = true;
      out.problems.push(p);
      continue;
    }
    if (!Array.isArray(entries)) {
      out.problems.push(ctx.problem("error", at, `hooks.${event}: expected an array`));
      continue;
    }
    entries.forEach((entry, i) => {
      const entryAt: FieldPath = [...at, i];
      const parsed = reasonixEntrySchema().safeParse(entry);
      if (!parsed.success) {
        out.problems.push(...zodProblems(ctx, entryAt, parsed.error));
        return;
      }
      const { match, command, description, timeout, cwd } = parsed.data;
      const typos = unknownFieldWarnings(entry, REASONIX_FIELDS, entryAt, ctx, {
        matcher: "match",
        matchers: "match",
      });
      out.problems.push(...typos);
      if (command === undefined || command.trim() === "") {
        out.problems.push(
          ctx.problem("warning", entryAt, `hooks.${event}[${i}]: no command; entry skipped`),
        );
        return;
      }
      const handler: CommandHandlerConfig = { type: "command", command };
      const problems: HookProblem[] = [];
      // Reasonix timeouts are milliseconds; Keel's handler timeouts are seconds.
      if (timeout !== undefined) {
        handler.timeout = timeout / 1000;
        if (timeout < SUSPICIOUS_TIMEOUT_MS) {
          problems.push(
            ctx.problem(
              "warning",
              [...entryAt, "timeout"],
              `timeout ${timeout} is in milliseconds in .reasonix files; did you mean ${timeout * 1000}?`,
            ),
          );
        }
      }
      if (description !== undefined) handler.description = description;
      if (cwd !== undefined) handler.cwd = cwd;
      out.hooks.push({
        event,
        matcher: match,
        ...(match !== undefined ? { matcherAt: [...entryAt, "match"] } : {}),
        handler,
        at: entryAt,
        problems,
      });
    });
  }
  return out;
}
