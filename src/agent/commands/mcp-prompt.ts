/**
 * MCP prompts as slash commands, as Claude Code offers them: `/mcp__<server>__<prompt> args`,
 * and `@server:scheme://…` resource mentions in a prompt.
 * The words after the name fill the prompt's declared arguments in order (quotes group words;
 * the last argument takes what is left), the server renders the messages, and their text is the
 * turn's prompt. Prompts are asked for when one is invoked, never pinned into the prefix: only
 * the prompt a user picks reaches the model, as the turn's user message.
 */
import type { GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { type ListedPrompt, mcpToolName } from "../../mcp/index.js";
import { type Expansion, splitArguments } from "./expand.js";

/** The MCP side prompts and resource mentions need (McpManager has it). */
export interface McpPromptSource {
  statuses(): readonly { name: string; state: string }[];
  readResource(server: string, uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  prompts(): Promise<{ server: string; prompt: ListedPrompt }[]>;
  getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<GetPromptResult>;
}

// Defined with the command loader, which refuses project commands of such names.
export { isMcpPromptName } from "./load.js";

/** Expands `/name args` through the server's prompt. Never throws. */
export async function expandMcpPrompt(
  source: McpPromptSource,
  name: string,
  args: string,
  signal: AbortSignal,
): Promise<Expansion & { server?: string }> {
  let listed: { server: string; prompt: ListedPrompt }[];
  try {
    listed = await source.prompts();
  } catch (err) {
    return { ok: false, error: `/${name}: could not list MCP prompts: ${messageOf(err)}` };
  }
  const found = listed.find((p) => mcpToolName(p.server, p.prompt.name) === name);
  if (!found) {
    const known = listed.map((p) => `/${mcpToolName(p.server, p.prompt.name)}`);
    return {
      ok: false,
      error: `unknown MCP prompt /${name}: ${known.length > 0 ? `the MCP prompts here are ${known.join(", ")}` : "no connected MCP server offers prompts"}`,
    };
  }
  const filled = fillArguments(found.prompt, splitArguments(args));
  if (typeof filled === "string") return { ok: false, error: `/${name}: ${filled}` };
  try {
    const result = await source.getPrompt(found.server, found.prompt.name, filled, signal);
    const prompt = renderMessages(result);
    if (prompt.trim() === "") {
      return { ok: false, error: `/${name}: the server returned no text for this prompt` };
    }
    return { ok: true, prompt, server: found.server };
  } catch (err) {
    return { ok: false, error: `/${name}: MCP server ${found.server}: ${messageOf(err)}` };
  }
}

/** Positional words to named arguments; a string says what is missing. */
function fillArguments(prompt: ListedPrompt, words: string[]): Record<string, string> | string {
  const out: Record<string, string> = {};
  const declared = prompt.arguments;
  declared.forEach((arg, i) => {
    const last = i === declared.length - 1;
    const value = last ? words.slice(i).join(" ") : words[i];
    if (value !== undefined && value !== "") out[arg.name] = value;
  });
  const missing = declared.filter((a) => a.required && out[a.name] === undefined);
  if (missing.length > 0) {
    const usage = declared.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
    return `missing ${missing.map((a) => a.name).join(", ")} (arguments: ${usage})`;
  }
  return out;
}

/** The messages' text, in order: text blocks as they are, an embedded text resource fenced with
 *  its URI, anything else (images, audio) named as left out — Keel sends the prompt as text. */
function renderMessages(result: GetPromptResult): string {
  const parts: string[] = [];
  for (const message of result.messages) {
    const c = message.content;
    if (c.type === "text") parts.push(c.text);
    else if (c.type === "resource" && "text" in c.resource && typeof c.resource.text === "string") {
      parts.push(`<resource uri="${c.resource.uri}">\n${c.resource.text}\n</resource>`);
    } else parts.push(`[${c.type} content of the prompt left out: Keel sends prompts as text]`);
  }
  return parts.join("\n\n");
}

/** A resource mention: `@server:scheme://path` at the start or after white space. */
const MENTION = /(^|\s)@([A-Za-z0-9_-]+):([a-z][a-z0-9+.-]*:\/\/[^\s]+)/g;

/** The most text one resource adds to a prompt. */
const MAX_RESOURCE_CHARS = 256 * 1024;

/**
 * `prompt` with each `@server:uri` mentioned in `typed` read from that server and attached
 * after it, as Claude Code attaches mentioned resources. `typed` is what the user typed (the
 * caller, turn-entry.ts, leaves out piped input, a command's body and an MCP prompt's text): a
 * repository's or a server's text must not make Keel read another server's resource. Mentions
 * of servers that are not in the session are left as typed (an e-mail address is not a
 * mention); one that fails is named in `notes`.
 */
export async function attachMcpResources(
  source: McpPromptSource,
  prompt: string,
  typed: string,
  signal: AbortSignal,
): Promise<{ prompt: string; notes: string[] }> {
  if (!typed.includes("@")) return { prompt, notes: [] };
  const servers = source
    .statuses()
    .filter((s) => s.state === "connected")
    .map((s) => s.name);
  const notes: string[] = [];
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const m of typed.matchAll(MENTION)) {
    const server = m[2] ?? "";
    const uri = m[3] ?? "";
    if (!servers.includes(server) || seen.has(`${server} ${uri}`)) continue;
    seen.add(`${server} ${uri}`);
    try {
      const result = await source.readResource(server, uri, signal);
      for (const c of result.contents) {
        if ("text" in c && typeof c.text === "string") {
          const text =
            c.text.length > MAX_RESOURCE_CHARS
              ? `${c.text.slice(0, MAX_RESOURCE_CHARS)}\n[… cut at ${MAX_RESOURCE_CHARS} characters]`
              : c.text;
          blocks.push(`<resource server="${server}" uri="${c.uri}">\n${text}\n</resource>`);
        } else notes.push(`@${server}:${c.uri}: binary content left out (Keel attaches text)`);
      }
    } catch (err) {
      notes.push(`@${server}:${uri}: ${messageOf(err)}`);
    }
  }
  return { prompt: blocks.length > 0 ? `${prompt}\n\n${blocks.join("\n\n")}` : prompt, notes };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
