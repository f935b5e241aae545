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

/** Renders Markdown `source` for a terminal `width` columns wide (no trailing newline). */
export function renderMarkdown(source: string, width: number): string {
  const tokens = new Lexer({ gfm: true }).lex(sanitize(source));
  return blocks(tokens, Math.max(10, width)).join("\n");
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

function table(token: Tokens.Table, width: number): string[] {
  const head = token.header.map((c) => inline(c.tokens));
  const rows = token.rows.map((r) => r.map((c) => inline(c.tokens)));
  const cols = head.map((_, i) =>
    Math.max(visibleWidth(head[i] ?? ""), ...rows.map((r) => visibleWidth(r[i] ?? ""))),
  );
  const line = (cells: string[]) =>
    cells.map((c, i) => c + " ".repeat(Math.max(0, (cols[i] ?? 0) - visibleWidth(c)))).join(" │ ");
  const rule = cols.map((w) => "─".repeat(w)).join("─┼─");
  return [bold(line(head)), dim(rule), ...rows.map(line)].flatMap((l) => wrap(l, width));
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
