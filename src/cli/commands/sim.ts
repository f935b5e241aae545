/**
 * `keel sim --script FILE [--port N]`: runs the DeepSeek-compatible simulator on 127.0.0.1,
 * prints its base URL (one line on stdout), logs each request on stderr, and runs until
 * SIGINT/SIGTERM.
 */
import type { Command } from "commander";
import type { SimRequestRecord } from "../../sim/index.js";
import { EXHAUSTED_TEXT, loadScriptFile, type Simulator, startSimulator } from "../../sim/index.js";
import { jsonProblem } from "../json-problem.js";
import { writeStderr, writeStdout } from "../stdout.js";
import { UserError } from "../user-error.js";

/** Options of `runSim`. */
export interface RunSimOptions {
  scriptPath: string;
  port?: number;
  /** Receives the URL line (stdout). */
  out: (text: string) => void;
  /** Receives one log line per request (stderr). */
  log: (text: string) => void;
  /** The simulator stops when this aborts. */
  signal: AbortSignal;
  /** Called once the server listens (tests use it to reach the simulator). */
  onStarted?: (sim: Simulator) => void;
}

/** Runs the simulator until `signal` aborts. Throws UserError for a bad script or port. */
export async function runSim(options: RunSimOptions): Promise<void> {
  const loaded = await loadScriptFile(options.scriptPath);
  if (!loaded.ok) {
    throw new UserError((await jsonProblem(options.scriptPath)) ?? loaded.error);
  }
  let sim: Simulator;
  try {
    sim = await startSimulator({
      script: loaded.script,
      ...(options.port === undefined ? {} : { port: options.port }),
      onRequest: (r) => options.log(`${describe(r)}\n`),
    });
  } catch (err) {
    const code = err instanceof Error && "code" in err ? err.code : undefined;
    if (code === "EADDRINUSE") throw new UserError(`port ${options.port} is already in use`);
    throw err;
  }
  options.out(`${sim.url}\n`);
  options.onStarted?.(sim);
  if (!options.signal.aborted) {
    await new Promise<void>((resolve) =>
      options.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
  }
  await sim.close();
}

/** One log line for a request. */
function describe(r: SimRequestRecord): string {
  const head = `#${r.index} ${r.status}`;
  if (r.status !== 200) return `${head} ${r.error ?? ""}`.trimEnd();
  const reply = r.scriptExhausted ? "script exhausted" : `reply ${r.replyIndex}`;
  return `${head} ${reply} prompt=${r.promptTokens} hit=${r.hitTokens} miss=${r.missTokens} out=${r.completionTokens} ${r.finishReason ?? ""}`.trimEnd();
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UserError(`--port: expected a number 0-65535, got "${value}"`);
  return port;
}

/** The script format, shown after `keel sim --help` (every example is a valid reply). */
export const SCRIPT_HELP = `
Script: {"replies": [...]} (or a bare array), one reply per request, in order:
  {"text": "Hello"}                                  an answer
  {"reasoning": "...", "text": "..."}                thinking mode (reasoning_content)
  {"toolCalls": [{"name": "shell", "arguments": {"command": "ls"}}]}
  {"toolCalls": [{"name": "shell", "rawArguments": "{\\"command\\": "}]}   exact argument text
  {"error": {"status": 429, "retryAfter": 1}, "repeat": 2}   HTTP errors (400-599)
  {"fault": {"type": "dsml_leak", "calls": [{"name": "read_file", "arguments": {"path": "a"}}]}}
    other faults: truncated_arguments, json_prefix, trailing_garbage (name, arguments),
    empty_arguments (name), reasoning_exhausts_budget
  more reply fields: finishReason, when {lastUserContains, lastMessageRole, jsonMode, ...},
    latency {firstByteMs, chunkDelayMs}, keepAlive, chunkChars, disconnectAfterChunks, usage
After the last reply every request gets "${EXHAUSTED_TEXT}".
GET <url>/_sim/requests lists every request received, with its exact bytes and cache accounting.
Point Keel at it: KEEL_BASE_URL=<url> DEEPSEEK_API_KEY=any keel run "..."`;

/** Registers `keel sim`. */
export function register(program: Command): void {
  program
    .command("sim")
    .description("Run the DeepSeek-compatible simulator on 127.0.0.1 (prints its base URL)")
    .requiredOption("--script <file>", "script of replies (JSON)")
    .option("--port <n>", "port to listen on (default: a free one)", parsePort)
    .addHelpText("after", SCRIPT_HELP)
    .action(async (opts: { script: string; port?: number }) => {
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      try {
        await runSim({
          scriptPath: opts.script,
          ...(opts.port === undefined ? {} : { port: opts.port }),
          out: (text) => writeStdout(text),
          log: (text) => writeStderr(text),
          signal: controller.signal,
        });
      } finally {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      }
    });
}
