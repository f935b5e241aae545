/**
 * The immutable request prefix: the system prompt, the tool specs and any few-shot messages,
 * rendered once. Every request of a session starts with these exact bytes, and two sessions in
 * the same project share them, so even a first turn hits the provider's prefix cache.
 */
import { createHash } from "node:crypto";
import type { ChatMessage, ToolSpec } from "../llm/index.js";
import { stableStringify } from "../llm/index.js";
import { renderMessage } from "./render.js";

/** What a prefix is built from. Nothing variable (time, session id, cwd) belongs here. */
export interface PrefixOptions {
  systemPrompt: string;
  tools: readonly ToolSpec[];
  fewShots?: readonly ChatMessage[];
}

/**
 * The system prompt, tool specs and few-shots as fixed bytes, fingerprinted. It changes only
 * through `addTool` (an MCP tool arriving mid-session), which costs one cache miss and is counted.
 */
export class ImmutablePrefix {
  readonly #messages: readonly string[];
  #specs: ToolSpec[];
  #toolsJson: string | undefined;
  #fingerprint: string;
  #revisions = 0;

  constructor(opts: PrefixOptions) {
    this.#messages = Object.freeze([
      renderMessage({ role: "system", content: opts.systemPrompt }),
      ...(opts.fewShots ?? []).map(renderMessage),
    ]);
    this.#specs = sortSpecs(opts.tools);
    this.#toolsJson = renderSpecs(this.#specs);
    this.#fingerprint = fingerprintOf(this.#messages, this.#toolsJson);
  }

  /** The rendered system message followed by the rendered few-shots. */
  get messages(): readonly string[] {
    return this.#messages;
  }

  /** The canonical JSON array of tool specs (sorted by name, sorted keys), or undefined. */
  get toolsJson(): string | undefined {
    return this.#toolsJson;
  }

  /** The tool names the prefix declares, in the order sent. */
  get toolNames(): readonly string[] {
    return this.#specs.map((s) => s.function.name);
  }

  /** sha256 (hex) of the prefix bytes: equal fingerprints mean byte-identical prefixes. */
  get fingerprint(): string {
    return this.#fingerprint;
  }

  /** How many times the prefix grew after creation (each one a deliberate cache miss). */
  get revisions(): number {
    return this.#revisions;
  }

  /** Adds one tool spec: the only way a prefix changes. Returns false for a duplicate name. */
  addTool(spec: ToolSpec): boolean {
    return this.addTools([spec]).length === 1;
  }

  /** Adds tool specs as one revision (one cache miss); returns the names added (not duplicates). */
  addTools(specs: readonly ToolSpec[]): string[] {
    const names = new Set(this.#specs.map((s) => s.function.name));
    const fresh = specs.filter((s) => !names.has(s.function.name) && names.add(s.function.name));
    if (fresh.length === 0) return [];
    this.#specs = sortSpecs([...this.#specs, ...fresh]);
    this.#toolsJson = renderSpecs(this.#specs);
    this.#fingerprint = fingerprintOf(this.#messages, this.#toolsJson);
    this.#revisions += 1;
    return fresh.map((s) => s.function.name);
  }
}

function sortSpecs(specs: readonly ToolSpec[]): ToolSpec[] {
  return [...specs].sort((a, b) =>
    a.function.name < b.function.name ? -1 : a.function.name > b.function.name ? 1 : 0,
  );
}

function renderSpecs(specs: readonly ToolSpec[]): string | undefined {
  return specs.length === 0 ? undefined : stableStringify(specs);
}

function fingerprintOf(messages: readonly string[], toolsJson: string | undefined): string {
  const hash = createHash("sha256");
  for (const m of messages) hash.update(m).update("\n");
  hash.update(toolsJson ?? "");
  return hash.digest("hex");
}
