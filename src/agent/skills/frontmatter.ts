/**
 * A Markdown file with YAML frontmatter (SKILL.md, agent files): read with a size cap, the
 * frontmatter parsed with bounded aliases and checked by a zod schema. Never throws: a bad file is
 * a problem naming the file and the field.
 */
import { parse } from "yaml";
import type { z } from "zod";
import { readConfigTextSync } from "../../base/index.js";

/** Bytes a definition file may have. */
export const DEFINITION_FILE_MAX_BYTES = 128 * 1024;

/** The parsed file, or a problem worded for the user. */
export type FrontmatterFile<T> = { meta: T; body: string } | { problem: string };

/** Reads `path` and checks its frontmatter against `schema` (a file without one gets `{}`). */
export function readFrontmatterFile<T>(path: string, schema: z.ZodType<T>): FrontmatterFile<T> {
  // Opened without blocking and only as a regular file: a FIFO from an unpacked archive must
  // not hang the session's start (attacks3/06).
  const read = readConfigTextSync(path);
  if (read.error !== undefined) return { problem: `${path}: ${read.error}` };
  if (read.content === null) return { problem: `${path}: unreadable (it does not exist)` };
  const text = read.content;
  if (Buffer.byteLength(text) > DEFINITION_FILE_MAX_BYTES) {
    return { problem: `${path}: larger than ${DEFINITION_FILE_MAX_BYTES} bytes; not loaded` };
  }
  let raw: unknown = {};
  let body = text;
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (fm) {
    body = text.slice(fm[0].length);
    const tooMuch = frontmatterTooComplex(fm[1] ?? "");
    if (tooMuch !== null) return { problem: `${path}: frontmatter ${tooMuch}; not loaded` };
    try {
      raw = parse(fm[1] ?? "", { maxAliasCount: 10 }) ?? {};
    } catch (err) {
      return { problem: `${path}: frontmatter is not valid YAML (${String(err)})` };
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      problem: `${path}: frontmatter ${issue?.path.join(".") || "(top level)"}: ${issue?.message ?? "invalid"}`,
    };
  }
  return { meta: parsed.data, body };
}

/** Deepest flow nesting (`[`, `{`) and indentation a frontmatter may have, and most entries
 *  (lines plus commas). The YAML parser recurses per level (60,000 overflowed the stack after a
 *  second) and checks a map's keys against each other (9,000 keys: four seconds), so a clone's
 *  SKILL.md or agent file slowed every start (attacks3/29). Real frontmatter has a handful of
 *  keys, nested a level or two. */
const FRONTMATTER_MAX_DEPTH = 64;
const FRONTMATTER_MAX_INDENT = 256; // spaces, `- ` and `? ` before a line's first word
const FRONTMATTER_MAX_ENTRIES = 2000;

/** Why a frontmatter is too much to parse, or null: one linear pass before the YAML parser.
 *  Brackets and commas count wherever they are (in quotes too: skipping quotes would let a
 *  plain scalar's apostrophe hide the rest of the line), so it errs on the side of counting. */
export function frontmatterTooComplex(yaml: string): string | null {
  let depth = 0;
  let entries = 0;
  let indent = 0;
  let lineStart = true;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml[i];
    if (c === "\n") {
      entries++;
      lineStart = true;
      indent = 0;
    } else if (lineStart && (c === " " || ((c === "-" || c === "?") && yaml[i + 1] === " "))) {
      // Indentation, and `- - - x` / `? ? x`: each a level of nesting on one line.
      if (++indent > FRONTMATTER_MAX_INDENT) {
        return `is indented more than ${FRONTMATTER_MAX_INDENT} spaces`;
      }
    } else {
      lineStart = false;
      if (c === ",") entries++;
      else if (c === "[" || c === "{") {
        if (++depth > FRONTMATTER_MAX_DEPTH) {
          return `is nested deeper than ${FRONTMATTER_MAX_DEPTH} levels`;
        }
      } else if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
    }
    if (entries > FRONTMATTER_MAX_ENTRIES) {
      return `has more than ${FRONTMATTER_MAX_ENTRIES} entries (lines and commas)`;
    }
  }
  return null;
}

/** A YAML list or a comma-separated string (`tools: Read, Grep`) as a list. */
export function listField(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim()).filter((s) => s !== "");
}

/** One line: whitespace collapsed, capped (it goes into the cached prefix). */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Code-unit order, the same on every machine and locale (bytes of the prefix depend on it). */
export function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
