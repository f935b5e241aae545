/**
 * What Gemini CLI and its fork Qwen Code share in reading hooks (read in the Gemini CLI 0.61 and
 * Qwen Code 0.15 bundles): a group's `sequential`, a handler's `name` and `env`, the project
 * directory written into the command text, and `<`/`>` escaped in additionalContext.
 */
import { isRecord, isSafeProjectHookEnvName, SAFE_HOOK_ENV_TEXT } from "../../../base/index.js";
import type { RawHook, ReadContext } from "../../config/handler.js";
import type { HookOutput } from "../../output.js";
import type { HookProblem } from "../../types.js";

/** The value at `at` in a parsed settings file (undefined when the path does not exist). */
function valueAt(settings: unknown, at: readonly (string | number)[]): unknown {
  let v: unknown = settings;
  for (const key of at) {
    v = isRecord(v) ? v[String(key)] : Array.isArray(v) ? v[Number(key)] : undefined;
  }
  return v;
}

/**
 * Marks the hooks of groups with `"sequential": true`. Both agents run every hook of a firing
 * one after another as soon as one matching hook's group says so (their HookPlanner:
 * `sequential = entries.some(e => e.sequential)`); the engine widens the mark to the firing.
 */
export function markSequential<T extends RawHook>(hooks: T[], settings: unknown): T[] {
  for (const h of hooks) {
    // A handler sits at hooks.<Event>[group].hooks[i]; its group is two steps up.
    const group = valueAt(settings, h.at.slice(0, -2));
    if (isRecord(group) && group.sequential === true) {
      h.sequentialGroup = h.at.slice(0, -2).join("/");
    }
  }
  return hooks;
}

/**
 * Copies a command handler's `name` and `env` (which Keel's shared reader leaves out) from the
 * file: both agents spawn the hook with `{...process.env, <their variables>, ...hook.env}`.
 * Values that are not strings are stringified as node's spawn would; objects are refused.
 */
export function readNameAndEnv<T extends RawHook>(
  hooks: T[],
  settings: unknown,
  ctx: ReadContext,
  problems: HookProblem[],
): T[] {
  for (const h of hooks) {
    const raw = valueAt(settings, h.at);
    if (!isRecord(raw) || h.handler.type !== "command") continue;
    if (typeof raw.name === "string" && raw.name !== "") h.handler.name = raw.name;
    if (raw.env === undefined) continue;
    if (!isRecord(raw.env)) {
      problems.push(ctx.problem("warning", [...h.at, "env"], "env: expected an object; ignored"));
      continue;
    }
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(raw.env)) {
      // A project file's hook must not change which programs run or what they load: the
      // trust listing shows the command, and `PATH=./tools` would make `git` the repository's,
      // `XDG_CONFIG_HOME=./cfg` its fsmonitor. An allowlist (base/child-env.ts): the list of
      // variables that do that has no end.
      if (ctx.scope !== "user" && !isSafeProjectHookEnvName(key)) {
        problems.push(
          ctx.problem(
            "warning",
            [...h.at, "env", key],
            `env.${key}: a project hook may not set ${key} (it could change which programs run; ${SAFE_HOOK_ENV_TEXT}); ignored`,
          ),
        );
        continue;
      }
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        env[key] = String(value);
      } else {
        problems.push(
          ctx.problem("warning", [...h.at, "env", key], `env.${key}: expected a string; ignored`),
        );
      }
    }
    h.handler.env = env;
  }
  return hooks;
}

/** Characters that mean nothing to a shell in any quoting: text made only of them can be
 *  written into a command line as is. */
const SHELL_INERT = /^[A-Za-z0-9_./:@%+=,-]+$/;

/**
 * Writes the values of `names` into the command text where it says `$NAME`, as both agents do
 * (so `'$GEMINI_PROJECT_DIR/hook.sh'` works inside single quotes). They shell-quote the value;
 * Keel writes only values made of shell-inert characters and otherwise leaves `$NAME` for the
 * shell to expand from the environment, so a project directory named `$(…)` or `a'b` is never
 * read as shell syntax. The pattern is theirs: `$NAME` without braces, even before more letters.
 */
export function expandNamedVars(
  command: string,
  names: readonly string[],
  env: Readonly<Record<string, string>>,
): string {
  let out = command;
  for (const name of names) {
    const value = env[name];
    if (value === undefined || !SHELL_INERT.test(value)) continue;
    out = out.replaceAll(`$${name}`, value);
  }
  return out;
}

/** additionalContext with `<` and `>` escaped, as both agents' getAdditionalContext() gives it
 *  (they wrap it in `<hook_context>` tags a hook must not close). */
export function escapedContext(out: HookOutput): HookOutput {
  const esc = (text: unknown) =>
    typeof text === "string" ? text.replace(/</g, "&lt;").replace(/>/g, "&gt;") : text;
  const hso = out.hookSpecificOutput;
  const next = { ...out };
  if (typeof out.additionalContext === "string") {
    next.additionalContext = esc(out.additionalContext) as string;
  }
  if (hso && typeof hso.additionalContext === "string") {
    next.hookSpecificOutput = { ...hso, additionalContext: esc(hso.additionalContext) as string };
  }
  return next;
}
