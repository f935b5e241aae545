/**
 * `keel run "<prompt>"`: one headless turn through the same agent core the TUI drives, printed
 * as text, one JSON object, or one JSON line per event. Exit 0 on success, 1 with a one-line
 * reason on stderr otherwise.
 */
import { stat } from "node:fs/promises";
import { constants as osConstants } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import type { AgentEvent, AgentStats, RewindReport } from "../../agent/index.js";
import {
  childProcessEnv,
  createAgent,
  openAgentSession,
  PERMISSION_MODES,
  sessionToolOptions,
} from "../../agent/index.js";
import type { HookListing } from "../../hooks/index.js";
import { createChatClient, EFFORT_LEVELS, resolveEffort } from "../../llm/index.js";
import { keelHomeFrom, SessionError, UsageLogError } from "../../session/index.js";
import { createBuiltinTools } from "../../tools/index.js";
import { VERSION } from "../../version.js";
import { baseUrlOrigin, loadConfig } from "../llm-config.js";
import { startSessionServers } from "../mcp/session-servers.js";
import { writeStderr, writeStdout } from "../stdout.js";
import { stripControls } from "../terminal-text.js";
import { UserError } from "../user-error.js";
import { keepYoungGenerationSmall } from "../young-generation.js";
import {
  createRunPrinter,
  createRunTally,
  type RunOutcome,
  runSummary,
  STREAM_TOOL_OUTPUT_BYTES,
} from "./run-output.js";
import {
  loadOutputSchema,
  type StructuredResult,
  schemaInstruction,
  settleStructured,
} from "./run-schema.js";
import { promptWithInput, readPipedInput, stdinIsPiped } from "./run-stdin.js";

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

/** Signals that stop a run gracefully (a second one of the same kind kills at once). */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Shown after `keel run --help`. */
export const RUN_HELP = `
Output formats (every field and event: \`keel docs run\`, docs/run.md):
  text         the answer on stdout; tool calls, hook messages and warnings on stderr
  json         one object: {result, isError, stopReason, error, sessionId, turns,
               usage: {promptTokens, cacheHitTokens, cacheMissTokens, completionTokens}, costUsd,
               cacheHitRatio, toolCalls: [{name, input, status}],
               hookRuns: [{event, source, outcome, durationMs}], warnings: [line]}
               (+ structured_output with --json-schema)
               isError is true exactly when the exit status is 1, and error says why;
               stopReason: end | hook_stop | max_turns | blocked | aborted | error;
               notices and failed hooks are keel: lines on stderr too
  stream-json  one JSON event per line: first {"type": "system", "subtype": "init", sessionId,
               resumed, model, cwd, keelVersion}, then the agent's events (turn_start,
               request_start, reasoning_delta, text_delta, tool_call, tool_output, tool_result,
               hook_start, hook_end, hook_run, notice, usage, compacted, subagent, harvest,
               branch, memory_loaded, error, turn_end), last {"type": "result", ...the json
               object}. A call's tool_output stops after ${STREAM_TOOL_OUTPUT_BYTES / 1024} KiB, and
               {"type": "tool_output_omitted", id, omittedBytes, streamedBytes} before its
               tool_result says how much was left out. usage.requestCostUsd is one request's cost
               (turnCostUsd is the same, under an older name); usage.costUsd the running total.

Without --yes, calls that need approval (writes, shell commands off the read-only list) are
refused with an explanation to the model, unless a PermissionRequest hook allows them. --yes does
not approve a write that can switch guards off (hooks and settings files, .keel/, a hook's
script) or a file with several hard links: approve those at the prompt (docs/security.md).
Ctrl+C (or SIGTERM) stops the run: the running tool is killed, SessionEnd hooks run and the
session is kept; the exit status is 128 + the signal (130 Ctrl+C, 143 SIGTERM, 129 SIGHUP), within
about 5 s even when a tool does not stop.
Text piped in (\`git diff | keel run "review this"\`, \`< file\`) is added after the prompt in a
<stdin> block (at most 4 MiB; a pipe silent for 3 s is given up on, with a note); @mentions in it
stay text: only what you type attaches an image or an MCP resource.
--continue with no session in the project starts a new one and says so on stderr.
--init / --maintenance fire Setup hooks (trigger init / maintenance) before SessionStart.
Project hooks that are not trusted (never, or changed since \`keel hooks trust\`) stop the run
before the first request, exit 1, each hook named; --without-project-hooks runs without them.
--effort LEVEL (or "effort" in config.json) asks the model to reason more or less, as the
model's entry in data/models.json says it can: DeepSeek V4 takes reasoning_effort high and max
(lower levels become high, xhigh becomes max, with a note) and none turns thinking off. A model
without an entry takes none: --effort then stops the run; config.json's effort is skipped with a
warning. Hooks see the level as effort.level and CLAUDE_EFFORT; every payload carries model.
--json-schema FILE asks for the answer as JSON valid against that JSON Schema (appended to the
prompt); an answer that is not gets one repair request, then the run fails naming the errors.
--image FILE (repeatable) sends an image with the prompt, as \`@shot.png\` in the prompt does;
only to a model with "vision": true in data/models.json (otherwise the run fails, nothing sent).
The file may be outside the project (you named it); Read deny/ask rules and KEEL_HOME bar it.
--rewind N (with --resume/--continue) first puts back the files write_file/edit_file changed
(a task sub-agent's too) from user turn N on and drops turn N onwards from the conversation; what cannot be restored
(shell side effects, files over 4 MB) is named on stderr. A compaction during turn N or later
leaves no conversation to go back to: the run then fails, changing nothing, and
--rewind N --rewind-files-only puts back only the files (the conversation goes on as it is).
Exit status: 0 when the turn finished; 1 otherwise, with a one-line reason on stderr.`;

/** What a rewind did, one line each (paths are the project's own, relative). */
function rewindLines(toTurn: number, r: RewindReport): string[] {
  const lines = [
    `rewound to before turn ${toTurn}: ${r.droppedMessages} message(s) dropped, ${r.restored.length} file(s) restored, ${r.deleted.length} deleted`,
  ];
  for (const p of r.restored) lines.push(`restored ${p}`);
  for (const p of r.deleted) lines.push(`deleted ${p} (it did not exist before)`);
  for (const p of r.notRestorable) lines.push(`not restorable: ${p}`);
  return lines;
}

/** Registers `keel run`. */
export function register(program: Command): void {
  program
    .command("run")
    .description("Run one prompt without the TUI and print the answer")
    .argument("[prompt]", "what to ask (text piped into keel run is added after it)")
    .option("--output-format <format>", "text | json | stream-json", "text")
    .option("-y, --yes", "approve every tool call that would ask for permission")
    .option("--model <model>", "model id (default from config / KEEL_MODEL)")
    .option("--effort <level>", `reasoning effort: ${EFFORT_LEVELS.join(" | ")} (see below)`)
    .option("--max-turns <n>", "model requests allowed for this prompt")
    .option(
      "--image <file>",
      "attach an image (PNG/JPEG/GIF/WebP, ≤ 5 MB) to the prompt; repeatable; the model needs vision",
      (file: string, prev: string[] = []) => [...prev, file],
    )
    .option("-c, --continue", "resume this project's most recent session")
    .option("-r, --resume <id>", "resume a session by id (or unique prefix)")
    .option(
      "--rewind <n>",
      "with --resume/--continue: first put files and conversation back to before user turn N",
    )
    .option("--rewind-files-only", "with --rewind: put back only the files, keep the conversation")
    .option("--mode <mode>", `permission mode: ${PERMISSION_MODES.join(" | ")}`)
    .option("--cwd <dir>", "project directory (default: the current directory)")
    .option(
      "--init",
      "fire Setup hooks (trigger: init) before the session starts, as Claude Code does",
    )
    .option("--maintenance", "fire Setup hooks (trigger: maintenance) before the session starts")
    .option("--harvest", "extract plan state from the model's reasoning (one cheap call per reply)")
    .option("--branch <n>", "N samples per request at spread temperatures; one is picked")
    .option(
      "--without-project-hooks",
      "run although the project's hooks are not trusted (they do not run, and gate nothing)",
    )
    .option(
      "--json-schema <file>",
      "answer with JSON valid against this JSON Schema (structured_output)",
    )
    .addHelpText("after", RUN_HELP)
    .action(async (prompt: string | undefined, raw: Record<string, unknown>) => {
      await runCommand(prompt ?? "", raw);
    });
}

async function runCommand(given: string, raw: Record<string, unknown>): Promise<void> {
  const parsed = optionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "option").replace(
      /[A-Z]/g,
      (c) => `-${c.toLowerCase()}`,
    );
    const given = issue?.path[0] === undefined ? undefined : raw[String(issue.path[0])];
    const got = typeof given === "string" ? ` (got "${given}")` : "";
    throw new UserError(`--${field}: ${issue?.message ?? "invalid value"}${got}`);
  }
  const o = parsed.data;
  let prompt = given;
  if (stdinIsPiped()) {
    const piped = await readPipedInput();
    if (piped.note) writeStderr(`keel: ${piped.note}\n`);
    prompt = promptWithInput(given, piped.text);
  }
  if (prompt.trim() === "") throw new UserError('the prompt is empty: keel run "<prompt>"');
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
  // Fail closed: a managed settings file that cannot be applied stops the run (run-managed.ts).
  const managed = await (await import("./run-managed.js")).managedSettingsCheck({
    projectDir,
    keelHome,
  });
  if (managed.refusal !== null) throw new UserError(managed.refusal);
  for (const n of managed.notices) writeStderr(`keel: ${stripControls(n)}\n`);
  // Fail closed: untrusted project hooks are guards that would not run (run-untrusted.ts).
  if (!o.withoutProjectHooks) {
    const { untrustedHooksRefusal } = await import("./run-untrusted.js");
    const refusal = await untrustedHooksRefusal({ projectDir, keelHome });
    if (refusal !== null) throw new UserError(refusal);
  }
  {
    const { unreadableRulesRefusal } = await import("./run-untrusted.js");
    const refusal = unreadableRulesRefusal({ projectDir, keelHome });
    if (refusal !== null) throw new UserError(refusal);
  }

  let writeError: string | null = null;
  let usageWarning: string | null = null;
  let session: ReturnType<typeof openAgentSession>;
  let continuing = false;
  try {
    session = openAgentSession({
      keelHome,
      projectDir,
      model,
      continueLatest: o.continue,
      ...(o.resume !== undefined ? { resume: o.resume } : {}),
      onError: (err) => {
        // The usage log is not the conversation: a warning at the end, not a failed run.
        if (err instanceof UsageLogError) usageWarning ??= err.message;
        else writeError ??= err instanceof Error ? err.message : String(err);
      },
    });
  } catch (err) {
    if (err instanceof SessionError) throw new UserError(err.message);
    throw err;
  }
  // --continue in a project without a session starts a new one; a script that meant to carry
  // on a conversation is told (the run itself is still fine, so the exit status stays 0). When
  // sessions could not be read, the session's warnings already say so.
  continuing = o.continue && session.messages.length > 0;
  if (o.continue && !continuing && o.resume === undefined && session.warnings.length === 0) {
    writeStderr(`keel: no session to continue in ${projectDir}; starting a new one\n`);
  }

  // Ctrl+C, a terminal closing and a polite kill (CI timeouts, `timeout`) all end the run the
  // same way: the running tool's process group is killed, the session stays valid and
  // SessionEnd fires. Without this, SIGTERM left detached tool processes running.
  const controller = new AbortController();
  let signalled: NodeJS.Signals | null = null;
  // A tool or hook that does not heed the abort (a read blocked in the kernel, a hook that
  // traps SIGTERM) must not keep the run alive: after a grace the session is closed and Keel
  // exits with the signal's status anyway. A second signal of the same kind kills at once.
  let watchdog: NodeJS.Timeout | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    signalled ??= sig;
    controller.abort();
    watchdog ??= setTimeout(() => {
      try {
        session.close();
      } catch {
        // Closing is best effort here: what was appended is on disk already.
      }
      writeStderr(`keel: interrupted (${sig}); a tool did not stop in time\n`);
      process.exit(signalExitStatus(sig));
    }, STOP_GRACE_MS);
    watchdog.unref();
  };
  for (const sig of STOP_SIGNALS) process.once(sig, onSignal);
  const printer = createRunPrinter(o.outputFormat, {
    stdout: (t) => writeStdout(t),
    stderr: (t) => writeStderr(t),
  });
  // Events are printed and tallied as they pass, never kept: a command's output can be
  // gigabytes (`yes`, `cat /dev/zero`), and a run that held every chunk ran out of memory.
  const tally = createRunTally(withHint);
  // OpenTelemetry, only when turned on: its SDK loads only then (src/telemetry/index.ts).
  const telemetry = await (await import("../../telemetry/index.js")).startTelemetry({
    ...{ env: process.env, keelHome, sessionId: session.id, model, frontEnd: "run" },
  });
  if (telemetry.problem !== null) writeStderr(`keel: ${telemetry.problem}\n`);
  const track = (ev: AgentEvent) => {
    tally.add(ev);
    printer.event(ev);
    telemetry.sink?.event(ev);
  };
  let outcome: RunOutcome;
  let stats: AgentStats;
  let structured: StructuredResult = null;
  try {
    // First, so a consumer whose run is killed (even while MCP servers start) knows the session.
    printer.init({
      sessionId: session.id,
      resumed: continuing || o.resume !== undefined,
      model,
      cwd: projectDir,
      keelVersion: VERSION,
    });
    for (const w of session.warnings) track({ type: "notice", level: "warn", text: w });
    // Headless: no elicitation handler, so a server's questions are declined.
    // Interrupted while servers start: the wait ends at once (the turn is then refused). A
    // server still starting after a second is named, so a slow start is not a silent hang.
    let waitNote: NodeJS.Timeout | undefined;
    const mcpServers = await startSessionServers({
      projectDir,
      keelHome,
      signal: controller.signal,
      onWaiting: (names) => {
        clearTimeout(waitNote);
        if (names.length === 0) return;
        const which = `MCP server${names.length === 1 ? "" : "s"} ${names.join(", ")}`;
        waitNote = setTimeout(
          () => writeStderr(`keel: waiting for ${which} to start…\n`),
          1000,
        ).unref();
      },
    });
    clearTimeout(waitNote);
    const toolSetup = sessionToolOptions({
      keelHome,
      transcriptPath: session.transcriptPath,
      model,
    });
    for (const text of toolSetup.problems) writeStderr(`keel: ${text}\n`);
    const agent = await createAgent({
      projectDir,
      keelHome,
      client: createChatClient({
        baseUrl: llm.baseUrl,
        baseUrlOrigin: baseUrlOrigin(llm),
        apiKey: llm.apiKey,
        streamIdleMs: llm.streamIdleMs,
      }),
      model,
      ...(effort !== undefined ? { effort } : {}),
      ...(llm.cheapModel ? { cheapModel: llm.cheapModel } : {}),
      tools: createBuiltinTools(
        { cwd: projectDir, env: childProcessEnv(process.env, { keelHome, apiKey: llm.apiKey }) },
        toolSetup.options,
      ),
      session,
      autoApprove: o.yes,
      ...(o.withoutProjectHooks ? { withoutProjectHooks: true } : {}),
      ...(o.mode !== undefined ? { permissionMode: o.mode } : {}),
      ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
      ...(o.harvest ? { harvest: true } : {}),
      ...(o.init ? { setupTrigger: "init" as const } : {}),
      ...(o.maintenance ? { setupTrigger: "maintenance" as const } : {}),
      ...(o.branch !== undefined ? { branch: o.branch } : {}),
      ...(mcpServers ? { mcpServers } : {}),
    }).catch(async (err: unknown) => {
      await mcpServers?.close();
      throw err;
    });
    // The session's modules are loaded: from here on, a small young generation (see there).
    keepYoungGenerationSmall();
    for (const text of hookWarnings(agent.hooks.listing())) {
      track({ type: "notice", level: "warn", text });
    }
    if (o.rewind !== undefined) {
      let report: RewindReport;
      try {
        report = agent.rewind(o.rewind, { files: true, conversation: !o.rewindFilesOnly });
      } catch (err) {
        // Refused as a whole (rewind.ts): nothing changed, no turn is run.
        await mcpServers?.close();
        throw new UserError((err as Error).message.replace(/^rewind: /, "--rewind: "));
      }
      for (const line of rewindLines(o.rewind, report)) writeStderr(`keel: ${line}\n`);
    }
    // --json-schema: asked at the end of the user turn (never in the system prompt: the cached
    // prefix stays the same bytes), checked, repaired once (run-schema.ts).
    const asked = outputSchema ? prompt + schemaInstruction(outputSchema) : prompt;
    const images = o.image ?? [];
    for await (const ev of agent.runTurn(asked, {
      signal: controller.signal,
      ...(images.length > 0 ? { images } : {}),
      // Piped input (and the --json-schema instruction) is passed along, not typed: mentions
      // in it stay text (commands/turn-entry.ts).
      ...(asked !== given ? { typed: given } : {}),
    }))
      track(ev);
    if (outputSchema) {
      structured = await settleStructured({
        schema: outputSchema,
        answer: () => tally.outcome(),
        // Keel's repair request quotes the answer's problems: nothing in it is typed.
        runTurn: (p) => agent.runTurn(p, { signal: controller.signal, typed: "" }),
        track,
      });
    }
    // A headless run ends on its own, not because someone exited: Claude Code's `-p` says
    // "other" too, and SessionEnd hooks written for it match on that.
    for await (const ev of agent.end("other")) track(ev);
    outcome = tally.outcome();
    stats = agent.stats();
  } finally {
    clearTimeout(watchdog);
    for (const sig of STOP_SIGNALS) process.removeListener(sig, onSignal);
    session.close();
    await telemetry.sink?.shutdown();
  }
  let failure =
    outcome.failure ?? (structured && "failure" in structured ? structured.failure : null);
  if (signalled !== null && signalled !== "SIGINT" && failure === "interrupted") {
    failure = `interrupted (${signalled})`;
  }
  // Checked after close(): closing the file can fail too.
  if (failure === null && writeError !== null) {
    failure = oneLine(`could not write the session: ${writeError}`);
  }
  if (usageWarning !== null) writeStderr(`keel: ${oneLine(usageWarning)}\n`);
  const summary = runSummary(outcome, stats, failure);
  if (outputSchema) {
    summary.json.structured_output = structured && "value" in structured ? structured.value : null;
  }
  printer.finish(summary);
  if (failure === null) return;
  // Stopped by a signal: the shell's convention, 128 + its number (130 for Ctrl+C, 143 for
  // SIGTERM), so a script or CI tells an interruption from a failed run.
  const status = signalled !== null && outcome.failure !== null ? signalExitStatus(signalled) : 1;
  // The reason is already on stderr as the notice that ended the turn: one line is enough.
  if (printer.shownOnStderr(failure)) {
    process.exitCode = status;
    return;
  }
  throw new UserError(stripControls(failure), status);
}

/** How long a stop signal waits for the turn to wind down before Keel exits regardless. */
const STOP_GRACE_MS = 5000;

/** The exit status of a run a signal stopped: 128 + the signal's number. */
function signalExitStatus(sig: NodeJS.Signals): number {
  return 128 + (osConstants.signals[sig] ?? 0);
}

/** Why configured hooks will not run: untrusted project hooks, files that failed to load. */
function hookWarnings(listing: HookListing): string[] {
  const out: string[] = [];
  const untrusted = listing.hooks.filter((h) => !h.trusted).length;
  if (listing.projectTrust.hasProjectHooks && !listing.projectTrust.trusted && untrusted > 0) {
    out.push(
      `${untrusted} project hook${untrusted === 1 ? " is" : "s are"} not trusted and will not run; review with \`keel hooks list\`, then \`keel hooks trust\``,
    );
  }
  for (const p of listing.problems) {
    if (p.severity !== "error") continue;
    const where = `${p.path}${p.line !== undefined ? `:${p.line}` : ""}`;
    out.push(`hooks from ${where} were not loaded: ${p.message}`);
  }
  return out;
}

/** Adds what to check to errors whose cause is on the user's side. */
function withHint(message: string): string {
  if (/^HTTP 401\b/.test(message)) {
    const config = join(keelHomeFrom(process.env), "config.json");
    return `${message} (check DEEPSEEK_API_KEY or "apiKey" in ${config})`;
  }
  return message;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
