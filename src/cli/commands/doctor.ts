/**
 * `keel doctor`: checks the Node version, the configuration and API key (masked), that the
 * endpoint answers (with the API, not a web page), every hook source with its problems, and the
 * MCP settings (read, not started) and the permission rules. Exit 1 when a check fails.
 */

import type { Command } from "commander";
import { resolveManagedSettingsPath, sanitizeJson } from "../../base/index.js";
import { redactUrls } from "../../hooks/index.js";
import { displayPath, field } from "../format/text.js";
import { writeStdout } from "../stdout.js";
import {
  checkConfig,
  checkEndpoint,
  checkHookSpawner,
  checkHooks,
  checkMcp,
  checkNode,
  checkPermissions,
  checkSandbox,
  checkTrustStores,
  type Finding,
} from "./doctor-checks.js";
import { checkManagedSettings } from "./doctor-managed.js";
import { keelHomeDir, resolveProjectDir } from "./hooks/shared.js";

const MARK: Record<Finding["status"], string> = { ok: "✓", warn: "!", fail: "✗", skip: "-" };

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  cwd?: string;
  offline?: boolean;
  json?: boolean;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  write?: (text: string) => void;
}

/**
 * A settings file that does not parse fails the hooks check and the MCP check alike: its error
 * is printed once, under hooks, and the MCP line points there.
 */
function pointToEarlierParseErrors(hooks: Finding[], mcp: Finding[]): Finding[] {
  return mcp.map((f) => {
    const file = /^(.+?): invalid JSON: /.exec(f.detail)?.[1];
    if (file === undefined) return f;
    const reported = hooks.some(
      (h) => h.detail.startsWith(`${file}:`) && h.detail.includes(": invalid JSON: "),
    );
    if (!reported) return f;
    return {
      ...f,
      detail: `${file} does not parse (the error is under hooks above); no MCP servers are read from it`,
    };
  });
}

/** Runs every check, prints the report, returns the exit code. */
export async function runDoctor(opts: DoctorOptions = {}): Promise<number> {
  const env = opts.env ?? process.env;
  const write = opts.write ?? ((t: string) => writeStdout(t));
  const keelHome = keelHomeDir();
  const projectDir = await resolveProjectDir(opts.cwd);
  const display = (path: string) => displayPath(path, { base: projectDir });
  const config = await checkConfig({ keelHome, env });
  const findings: Finding[] = [
    checkNode(),
    checkSandbox(env),
    checkHookSpawner(),
    ...config.findings,
    ...(await checkEndpoint({
      config: config.config,
      offline: opts.offline ?? false,
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    })),
  ];
  const hooks = await checkHooks({ projectDir, keelHome, env, display });
  const mcp = await checkMcp({ projectDir, keelHome, env, display });
  findings.push(...hooks, ...pointToEarlierParseErrors(hooks, mcp));
  findings.push(
    ...checkPermissions({
      projectDir,
      keelHome,
      managedSettings: resolveManagedSettingsPath(env),
      ...(env.HOME ? { homeDir: env.HOME } : {}),
      display: (path) =>
        displayPath(path, { base: projectDir, ...(env.HOME ? { home: env.HOME } : {}) }),
    }),
  );
  findings.push(
    ...checkManagedSettings(env, (path) =>
      displayPath(path, { base: projectDir, ...(env.HOME ? { home: env.HOME } : {}) }),
    ),
  );
  findings.push(
    ...checkTrustStores(keelHome, (path) =>
      displayPath(path, { base: projectDir, ...(env.HOME ? { home: env.HOME } : {}) }),
    ),
  );
  const failed = findings.some((f) => f.status === "fail");
  if (opts.json) {
    const shown = findings.map((f) => ({ ...f, detail: redactUrls(f.detail) }));
    write(`${sanitizeJson({ ok: !failed, projectDir, keelHome, findings: shown }, 2)}\n`);
  } else {
    // Base URLs may carry credentials or a ?key=: never printed.
    for (const f of findings) {
      write(`${MARK[f.status]} ${f.check.padEnd(8)} ${field(redactUrls(f.detail))}\n`);
    }
    const warnings = findings.filter((f) => f.status === "warn").length;
    const note = warnings === 0 ? "" : ` (${warnings} warning${warnings === 1 ? "" : "s"} above)`;
    write(failed ? "\nSome checks failed.\n" : `\nAll checks passed${note}.\n`);
  }
  return failed ? 1 : 0;
}

/** Registers `keel doctor`. */
export function register(program: Command): void {
  program
    .command("doctor")
    .description(
      "Check Node, configuration, API key, endpoint, hook sources, MCP settings and permission rules",
    )
    .option("--offline", "do not contact the endpoint")
    .option("--json", "print the findings as JSON")
    .option("--cwd <dir>", "project directory (default: the current directory)")
    .action(async (o: { offline?: boolean; json?: boolean; cwd?: string }) => {
      const code = await runDoctor({
        ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
        offline: o.offline === true,
        json: o.json === true,
      });
      process.exitCode = code;
    });
}
