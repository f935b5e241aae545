/**
 * The slice of mvdan-sh's JavaScript API (a GopherJS build of mvdan/sh's `syntax` package,
 * which ships no types) that parse.ts uses, and quote removal for its literal parts.
 */

/** A node of the Go syntax tree; fields are the Go struct's (Stmts, Cmd, Args, Parts, Op…). */
// biome-ignore lint/suspicious/noExplicitAny: untyped GopherJS objects, narrowed where read.
export type ShNode = any;

/** The `syntax` namespace of mvdan-sh. */
export interface ShSyntax {
  NewParser(...options: unknown[]): {
    Parse(src: string, name: string): ShNode;
    /** Parses line by line, handing over each line's statements; throws at a syntax error. */
    Interactive(src: string, each: (stmts: ShNode[]) => boolean): unknown;
  };
  /** The word with bash's brace expansions (`{a,b}`, `{1..3}`) as BraceExp parts. */
  SplitBraces(word: ShNode): ShNode;
  NodeType(node: ShNode): string;
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
  KeepComments(keep: boolean): unknown;
  Variant(lang: unknown): unknown;
  LangBash: unknown;
  LangPOSIX: unknown;
}

/**
 * Removes the backslashes the shell removes from a literal: outside quotes every `\c` is `c`
 * (and `\` + newline disappears); inside double quotes only `\$ \` \" \\` and `\` + newline.
 */
export function unescapeLiteral(raw: string, inDoubleQuotes: boolean): string {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== "\\" || i + 1 >= raw.length) {
      out += c;
      continue;
    }
    const next = raw[i + 1] ?? "";
    if (next === "\n") {
      i++;
    } else if (!inDoubleQuotes || '$`"\\'.includes(next)) {
      out += next;
      i++;
    } else {
      out += c;
    }
  }
  return out;
}
