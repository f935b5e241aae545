/**
 * Markdown for the terminal: marked's lexer reads the answer, this lays it out (headings, bold,
 * italics, lists, links, inline and fenced code with syntax colours, quotes, tables), wrapped to
 * the width with hanging indents. The source is sanitized first; the only escape sequences in
 * the result are the styles added here.
 */
import { Lexer, type Token, type Tokens } from "marked";
import wrapAnsi from "wrap-ansi";
import { charWidth } from "./format.js";
import { highlightCode } from "./highlight.js";
import { sanitize } from "./sanitize.js";

const style = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const bold = style(1, 22);
const italic = style(3, 23);
const underline = style(4, 24);
const strike = style(9, 29);
const dim = style(2, 22);
const yellow = style(33, 39);
const cyan = style(36, 39);
const blue = style(34, 39);
const magenta = style(35, 39);

/** Options of {@link renderMarkdown}. */
export interface RenderOptions {
  /** The source is a table whose header and first N body rows were shown above: not again. */
  tableRowsShown?: number;
}

/** Renders Markdown `source` for a terminal `width` columns wide (no trailing newline). */
export function renderMarkdown(source: string, width: number, opts: RenderOptions = {}): string {
  const tokens = new Lexer({ gfm: true }).lex(sanitize(source));
  const w = Math.max(10, width);
  const [first, ...rest] = tokens;
  if (opts.tableRowsShown !== undefined && first?.type === "table") {
    const later = table(first as Tokens.Table, w, opts.tableRowsShown);
    return [...later, ...blocks(rest, w)].join("\n");
  }
  return blocks(tokens, w).join("\n");
}

/** The width of a rendered line in columns (styles take none). */
export function visibleWidth(text: string): number {
  let n = 0;
  for (const ch of text.replace(/\x1b\[[0-9;]*m/g, "")) n += charWidth(ch.codePointAt(0) ?? 0);
  return n;
}

function blocks(tokens: readonly Token[], width: number): string[] {
  const out: string[] = [];
  let gap = false;
  for (const token of tokens) {
    if (token.type === "space") {
      gap = out.length > 0;
      continue;
    }
    const lines = block(token, width);
    if (lines.length === 0) continue;
    // Blocks the source separated by a blank line keep one; a tight list stays tight.
    if (gap) out.push("");
    gap = false;
    out.push(...lines);
  }
  return out;
}

function block(token: Token, width: number): string[] {
  switch (token.type) {
    case "heading": {
      const t = token as Tokens.Heading;
      const text = inline(t.tokens);
      const styled = t.depth === 1 ? bold(underline(magenta(text))) : bold(magenta(text));
      return wrap(styled, width);
    }
    case "paragraph":
      return wrap(inline((token as Tokens.Paragraph).tokens), width);
    case "text": {
      const t = token as Tokens.Text;
      return wrap(t.tokens ? inline(t.tokens) : t.text, width);
    }
    case "code":
      return code(token as Tokens.Code, width);
    case "list":
      return list(token as Tokens.List, width);
    case "blockquote": {
      const inner = blocks((token as Tokens.Blockquote).tokens, width - 2);
      return inner.map((line) => `${dim("│")} ${italic(line)}`);
    }
    case "hr":
      return [dim("─".repeat(Math.min(width, 40)))];
    case "table":
      return table(token as Tokens.Table, width);
    case "html":
      return wrap((token as Tokens.HTML).text.trimEnd(), width);
    case "def":
      return [];
    default:
      return "raw" in token && typeof token.raw === "string"
        ? wrap(token.raw.trimEnd(), width)
        : [];
  }
}

function code(token: Tokens.Code, width: number): string[] {
  const lang = (token.lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const coloured = highlightCode(token.text.replace(/\n$/, ""), ALIASES[lang] ?? lang);
  // Code is not reflowed (indentation matters); a line wider than the screen breaks hard.
  return coloured
    .split("\n")
    .flatMap((line) => wrapAnsi(`  ${line}`, width, { hard: true, trim: false }).split("\n"));
}

const ALIASES: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  py: "python",
  rs: "rust",
  yml: "yaml",
  html: "xml",
  patch: "diff",
};

function list(token: Tokens.List, width: number): string[] {
  const out: string[] = [];
  const start = typeof token.start === "number" ? token.start : 1;
  const markers = token.items.map((item, i) => {
    const box = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
    return `${token.ordered ? `${start + i}.` : "•"} ${box}`;
  });
  const indent = Math.max(...markers.map((m) => m.length));
  token.items.forEach((item, i) => {
    const body = blocks(item.tokens, width - indent);
    if (token.loose && i > 0) out.push("");
    body.forEach((line, j) => {
      const marker = markers[i] ?? "";
      out.push(`${j === 0 ? cyan(marker.padEnd(indent)) : " ".repeat(indent)}${line}`);
    });
  });
  return out;
}

/**
 * A table fitted to the width: when its natural width is too wide, the widest columns narrow
 * and their cells wrap inside them (a row takes several lines), so the columns stay columns.
 * `rowsShown`: the header and that many rows are on screen already; only the rest is drawn.
 */
function table(token: Tokens.Table, width: number, rowsShown?: number): string[] {
  const head = token.header.map((c) => inline(c.tokens));
  const rows = token.rows.map((r) => r.map((c) => inline(c.tokens)));
  const natural = head.map((_, i) =>
    Math.max(1, visibleWidth(head[i] ?? ""), ...rows.map((r) => visibleWidth(r[i] ?? ""))),
  );
  const cols = fitColumns(natural, width - 3 * (natural.length - 1));
  const line = (cells: string[]) => {
    const wrapped = cols.map((w, i) => wrapAnsi(cells[i] ?? "", w, { hard: true }).split("\n"));
    const height = Math.max(...wrapped.map((c) => c.length));
    return Array.from({ length: height }, (_, k) =>
      wrapped
        .map((c, i) => {
          const text = c[k] ?? "";
          return text + " ".repeat(Math.max(0, (cols[i] ?? 0) - visibleWidth(text)));
        })
        .join(" │ ")
        .trimEnd(),
    );
  };
  const rule = cols.map((w) => "─".repeat(w)).join("─┼─");
  // Widths come from every row, shown or not, so later rows line up with earlier ones.
  const top = rowsShown === undefined ? [...line(head).map((l) => bold(l)), dim(rule)] : [];
  // Only a table too narrow to fit (more columns than room) still wraps; never trim: a
  // continuation line starts with an empty cell's padding.
  return [...top, ...rows.slice(rowsShown ?? 0).flatMap(line)].flatMap((l) =>
    wrapAnsi(l, width, { hard: true, trim: false }).split("\n"),
  );
}

/** Column widths summing to at most `room`: the widest column gives a column up first. */
function fitColumns(natural: readonly number[], room: number): number[] {
  const cols = [...natural];
  let excess = cols.reduce((a, b) => a + b, 0) - room;
  while (excess > 0) {
    const widest = cols.indexOf(Math.max(...cols));
    if ((cols[widest] ?? 0) <= 1) break;
    cols[widest] = (cols[widest] ?? 1) - 1;
    excess--;
  }
  return cols;
}

function inline(tokens: readonly Token[] | undefined): string {
  if (!tokens) return "";
  return tokens.map(inlineOne).join("");
}

function inlineOne(token: Token): string {
  switch (token.type) {
    case "strong":
      return bold(inline((token as Tokens.Strong).tokens));
    case "em":
      return italic(inline((token as Tokens.Em).tokens));
    case "del":
      return strike(inline((token as Tokens.Del).tokens));
    case "codespan":
      return yellow((token as Tokens.Codespan).text);
    case "br":
      return "\n";
    case "link": {
      const t = token as Tokens.Link;
      const text = inline(t.tokens);
      // The address is printed, never hidden in an escape sequence: what you see is where it goes.
      const plain = t.text.replace(/^mailto:/, "");
      return plain === t.href || plain === ""
        ? blue(underline(t.href))
        : `${blue(text)} ${dim(`(${t.href})`)}`;
    }
    case "image": {
      const t = token as Tokens.Image;
      return `${dim("[image:")} ${t.text || t.href}${dim("]")}`;
    }
    case "text": {
      const t = token as Tokens.Text;
      return t.tokens ? inline(t.tokens) : t.text;
    }
    default:
      return "text" in token && typeof token.text === "string" ? token.text : "";
  }
}

function wrap(text: string, width: number): string[] {
  return wrapAnsi(text, width, { hard: true, trim: true }).split("\n");
}
