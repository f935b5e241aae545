/**
 * `keel mcp`: list the MCP servers a session would use (with their status and tools), show one,
 * add one to a settings file, remove one.
 */
import { join, relative } from "node:path";
import type { Command } from "commander";
import { describeServer, McpManager, type McpServerStatus } from "../../mcp/index.js";
import { UserError } from "../main.js";
import { addServer, type McpWriteScope, removeServer, scopeFile } from "../mcp/edit-config.js";
import { trustedMcpConfig } from "../mcp/session-servers.js";
import { keelHomeDir, type Output, processOutput, resolveProjectDir } from "./hooks-shared.js";

const CWD_FLAG = "--cwd <dir>";
const CWD_HELP = "project directory (default: the current directory)";

/** Connects to every server that would start and returns their statuses and definitions. */
async function probe(cwd: string | undefined) {
  const projectDir = await resolveProjectDir(cwd);
  const keelHome = keelHomeDir();
  const t = await trustedMcpConfig({ projectDir, keelHome });
  const manager = await McpManager.start({
    servers: t.run,
    untrusted: t.untrusted,
    allowRules: t.allowRules,
    configProblems: t.config.problems,
    env: process.env,
    cwd: projectDir,
  });
  try {
    return {
      projectDir,
      t,
      statuses: manager.statuses(),
      tools: manager.tools(),
      notices: manager.startupNotices(),
    };
  } finally {
    await manager.close();
  }
}

function stateText(s: McpServerStatus): string {
  if (s.state === "connected")
    return `connected, ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`;
  if (s.state === "untrusted") return "untrusted: not started (keel hooks trust)";
  return `${s.state === "timeout" ? "timed out" : "failed"}: ${s.error ?? ""}`;
}

/** `keel mcp list`. */
export async function runMcpList(
  opts: { cwd?: string; json?: boolean },
  out: Output,
): Promise<number> {
  const p = await probe(opts.cwd);
  if (opts.json) {
    const servers = p.statuses.map((s) => {
      const entry = p.t.config.servers.find((e) => e.name === s.name);
      return {
        name: s.name,
        file: s.file,
        scope: s.scope,
        transport: s.transport,
        status: s.state,
        ...(s.error !== undefined ? { error: s.error } : {}),
        tools: s.tools,
        ...(entry ? { definition: describeServer(entry.config) } : {}),
      };
    });
    out.stdout(`${JSON.stringify({ servers, problems: p.t.config.problems }, null, 2)}\n`);
    return 0;
  }
  if (p.statuses.length === 0) {
    const user = join(keelHomeDir(), "settings.json");
    out.stdout(`No MCP servers configured (.mcp.json, .keel/settings*.json, ${user}).\n`);
  }
  for (const s of p.statuses) {
    out.stdout(
      `${s.name}  ${s.transport}  ${stateText(s)}  (${displayFile(s.file, p.projectDir)})\n`,
    );
    for (const t of s.tools) out.stdout(`    ${t}\n`);
    if (s.stderrTail?.trim())
      out.stdout(
        `    stderr: ${s.stderrTail.trim().split("\n").slice(-3).join("\n            ")}\n`,
      );
  }
  for (const problem of p.t.config.problems) out.stderr(`keel: ${problem}\n`);
  return p.t.config.problems.length > 0 ? 1 : 0;
}

/** `keel mcp get NAME`. */
export async function runMcpGet(
  name: string,
  opts: { cwd?: string },
  out: Output,
): Promise<number> {
  const p = await probe(opts.cwd);
  const s = p.statuses.find((x) => x.name === name);
  const entry = p.t.config.servers.find((e) => e.name === name);
  if (!s || !entry) throw new UserError(`no MCP server named ${name} (see keel mcp list)`);
  out.stdout(`${name}\n`);
  out.stdout(`  file:       ${displayFile(entry.file, p.projectDir)} (${entry.scope})\n`);
  out.stdout(`  definition: ${describeServer(entry.config)}\n`);
  out.stdout(`  status:     ${stateText(s)}\n`);
  if (s.stderrTail?.trim())
    out.stdout(
      `  stderr:     ${s.stderrTail.trim().split("\n").slice(-5).join("\n              ")}\n`,
    );
  for (const problem of s.problems) out.stdout(`  problem:    ${problem}\n`);
  for (const tool of p.tools.filter((t) => t.mcp.server === name)) {
    const flags = [
      tool.mcp.readOnly ? "read-only" : "asks",
      tool.mcp.allowed ? "allowed by rule" : "",
    ].filter(Boolean);
    out.stdout(`  ${tool.name}  [${flags.join(", ")}]\n`);
    if (tool.description) out.stdout(`      ${tool.description.split("\n")[0]}\n`);
  }
  return 0;
}

/** Options of `keel mcp add`. */
export interface McpAddOptions {
  cwd?: string;
  scope?: string;
  transport?: string;
  env?: string[];
  header?: string[];
}

/** `keel mcp add NAME -- CMD ARGS…` or `keel mcp add --transport http NAME URL`. */
export async function runMcpAdd(
  name: string,
  rest: string[],
  opts: McpAddOptions,
  out: Output,
): Promise<number> {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    throw new UserError(
      `server name ${JSON.stringify(name)}: use only letters, digits, "_" and "-"`,
    );
  }
  const scope = (opts.scope ?? "local") as McpWriteScope;
  if (!["project", "local", "user"].includes(scope))
    throw new UserError("--scope: expected project, local or user");
  const transport = opts.transport ?? "stdio";
  let definition: Record<string, unknown>;
  if (transport === "stdio") {
    const [command, ...args] = rest;
    if (command === undefined)
      throw new UserError("keel mcp add NAME -- COMMAND [ARGS…]: the command is missing");
    const env = pairs(opts.env ?? [], "=", "--env");
    definition = { command, args, ...(Object.keys(env).length > 0 ? { env } : {}) };
  } else if (transport === "http" || transport === "sse") {
    const [url, ...extra] = rest;
    if (url === undefined || extra.length > 0)
      throw new UserError(`--transport ${transport}: give exactly one URL`);
    try {
      new URL(url.replace(/\$\{[^}]*\}/g, "x"));
    } catch {
      throw new UserError(`not a URL: ${url}`);
    }
    const headers = pairs(opts.header ?? [], ":", "--header");
    definition = { type: transport, url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  } else {
    throw new UserError("--transport: expected stdio, http or sse");
  }
  const projectDir = await resolveProjectDir(opts.cwd);
  const file = scopeFile(scope, projectDir, keelHomeDir());
  const error = await addServer(file, name, definition);
  if (error) throw new UserError(error);
  out.stdout(`Added MCP server ${name} to ${displayFile(file, projectDir)} (${scope}).\n`);
  if (scope !== "user") out.stdout("Project servers start once trusted: keel hooks trust\n");
  return 0;
}

/** `keel mcp remove NAME`. */
export async function runMcpRemove(
  name: string,
  opts: { cwd?: string; scope?: string },
  out: Output,
): Promise<number> {
  const projectDir = await resolveProjectDir(opts.cwd);
  const scopes: McpWriteScope[] = opts.scope
    ? [opts.scope as McpWriteScope]
    : ["local", "project", "user"];
  const removed: string[] = [];
  for (const scope of scopes) {
    const file = scopeFile(scope, projectDir, keelHomeDir());
    const r = await removeServer(file, name);
    if (typeof r === "string") throw new UserError(r);
    if (r) removed.push(displayFile(file, projectDir));
  }
  // .keel/settings.json is read but never written by add; a server there is removed too.
  if (!opts.scope) {
    const shared = `${projectDir}/.keel/settings.json`;
    const r = await removeServer(shared, name);
    if (r === true) removed.push(displayFile(shared, projectDir));
  }
  if (removed.length === 0)
    throw new UserError(`no MCP server named ${name} in the settings files`);
  out.stdout(`Removed MCP server ${name} from ${removed.join(", ")}.\n`);
  return 0;
}

function pairs(items: string[], sep: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(sep);
    if (at <= 0) throw new UserError(`${flag} ${item}: expected KEY${sep}VALUE`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

function displayFile(file: string, projectDir: string): string {
  const rel = relative(projectDir, file);
  return rel.startsWith("..") ? file : rel;
}

const collect = (value: string, prev: string[] = []) => [...prev, value];

/** Registers `keel mcp` and its subcommands. */
export function register(program: Command): void {
  const mcp = program.command("mcp").description("MCP servers: list, show, add, remove");
  const done = (code: number) => {
    process.exitCode = code;
  };
  mcp
    .command("list")
    .description("every configured server: source file, transport, status and tools")
    .option("--json", "print one JSON document")
    .option(CWD_FLAG, CWD_HELP)
    .action(async (opts: { cwd?: string; json?: boolean }) =>
      done(await runMcpList(opts, processOutput)),
    );
  mcp
    .command("get")
    .description("one server: its definition, status and tools")
    .argument("<name>")
    .option(CWD_FLAG, CWD_HELP)
    .action(async (name: string, opts: { cwd?: string }) =>
      done(await runMcpGet(name, opts, processOutput)),
    );
  mcp
    .command("add")
    .description(
      "add a server: keel mcp add NAME -- CMD ARGS…  |  keel mcp add --transport http NAME URL",
    )
    .argument("<name>")
    .argument("[commandOrUrl...]")
    .option(
      "--scope <scope>",
      "project (.mcp.json) | local (.keel/settings.local.json) | user ($KEEL_HOME/settings.json)",
      "local",
    )
    .option("--transport <transport>", "stdio | http | sse", "stdio")
    .option(
      "-e, --env <KEY=VALUE>",
      "environment variable for a stdio server (repeatable)",
      collect,
    )
    .option("-H, --header <Name: value>", "HTTP header for a remote server (repeatable)", collect)
    .option(CWD_FLAG, CWD_HELP)
    .action(async (name: string, rest: string[], opts: McpAddOptions) =>
      done(await runMcpAdd(name, rest, opts, processOutput)),
    );
  mcp
    .command("remove")
    .description("remove a server from the settings files (or only from --scope's file)")
    .argument("<name>")
    .option("--scope <scope>", "project | local | user")
    .option(CWD_FLAG, CWD_HELP)
    .action(async (name: string, opts: { cwd?: string; scope?: string }) =>
      done(await runMcpRemove(name, opts, processOutput)),
    );
}
