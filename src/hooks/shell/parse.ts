/**
 * A real shell parser behind one small interface: mvdan/sh (the parser of `shfmt`, as the
 * synchronous `mvdan-sh` build) reads a command line the way `sh -c` will, and this module
 * turns its syntax tree into the simple commands it contains plus everything it could not see
 * through (expansions, redirections to files, control flow…). Auto-approval (src/agent) and
 * hooks' `if` conditions (match.ts) both use it. A leaf module: it imports nothing from src/.
 */
import { createRequire } from "node:module";
import { type ShNode, type ShSyntax, unescapeLiteral } from "./syntax.js";

/** One simple command as the shell would run it. */
export interface ShellCommand {
  /** Its words after quote removal; a word with expansions keeps its source text. */
  argv: string[];
  /** Per word: true when it is literal (no expansion, no unquoted glob or tilde). */
  literal: boolean[];
  /** `NAME=value` prefixes (the environment it runs with). */
  assigns: string[];
  /** Whether it sits inside `$(…)`, backticks or `<(…)`. */
  substituted: boolean;
}

/** What the parser saw in a command line. */
export interface ShellAnalysis {
  /** False when the line does not parse; `error` says why. */
  parsed: boolean;
  error?: string;
  /** Every simple command, in source order, including those inside substitutions. */
  commands: ShellCommand[];
  /** Constructs whose effect cannot be known from the text alone (empty when fully visible). */
  opaque: string[];
}

let syntax: ShSyntax | undefined;
let ops: Map<number, string> | undefined;
let parser: { Parse(src: string, name: string): ShNode } | undefined;
let posixParser: { Parse(src: string, name: string): ShNode } | undefined;

/** The parser, loaded on first use: it is 1.5 MB of JavaScript that most commands never need. */
function sh(): ShSyntax {
  if (!syntax) {
    const load = createRequire(import.meta.url);
    syntax = (load("mvdan-sh") as { syntax: ShSyntax }).syntax;
  }
  return syntax;
}

/** Operator numbers are not exported by the JS build: learn them by parsing one sample each. */
function operators(S: ShSyntax): Map<number, string> {
  if (ops) return ops;
  const table = new Map<number, string>();
  const p = S.NewParser(S.Variant(S.LangBash));
  for (const op of [">", ">>", "<", ">&", "<&", "<>", ">|", "&>", "&>>", "<<<"]) {
    const stmt = p.Parse(`a ${op}b`, "op").Stmts[0];
    const r = stmt?.Redirs[0];
    if (r) table.set(r.Op, op);
  }
  for (const op of ["<<", "<<-"]) {
    const r = p.Parse(`a ${op}E\nE\n`, "op").Stmts[0]?.Redirs[0];
    if (r) table.set(r.Op, op);
  }
  for (const op of ["&&", "||", "|", "|&"]) {
    const cmd = p.Parse(`a ${op} b`, "op").Stmts[0]?.Cmd;
    if (cmd) table.set(1000 + (cmd.Op as number), op);
  }
  ops = table;
  return table;
}

const OPAQUE_NODES: Record<string, string> = {
  CmdSubst: "command substitution",
  ProcSubst: "process substitution",
  ParamExp: "variable expansion",
  ArithmExp: "arithmetic expansion",
  ExtGlob: "extended glob",
  BraceExp: "brace expansion",
  IfClause: "if",
  WhileClause: "while/until loop",
  ForClause: "for loop",
  CaseClause: "case",
  FuncDecl: "function definition",
  DeclClause: "declaration",
  LetClause: "let",
  TestClause: "[[ test ]]",
  ArithmCmd: "(( arithmetic ))",
  TimeClause: "time",
  CoprocClause: "coprocess",
};

/** Redirections that neither write a file nor read anything but a named file. (`&>` is not one:
 *  sh does not read it as a redirection at all.) */
function redirectIsHarmless(op: string, target: string | undefined, literal: boolean): boolean {
  if (op === ">&" || op === "<&") return literal && /^(\d|-)$/.test(target ?? "");
  if (op === ">" || op === ">>" || op === ">|") {
    return literal && target === "/dev/null";
  }
  return op === "<" && literal;
}

/** The last analyses, by source: one tool call is checked by every `if` condition of every
 *  hook on its event (and by auto-approval), and a parse costs ~0.6 ms of mvdan-sh. Frozen, as
 *  callers share them. */
const recent = new Map<string, ShellAnalysis>();
const RECENT_MAX = 32;

/**
 * Parses `source` and lists its simple commands and the constructs it could not see through.
 * Bash syntax is accepted so people's bash-isms parse, but whatever bash and a POSIX `sh` read
 * differently (`$'…'`, `[[`, `|&`, `&>`) counts as opaque or as a redirection: never as literal.
 */
export function analyzeShell(source: string): ShellAnalysis {
  const known = recent.get(source);
  if (known) return known;
  const analysis = deepFreeze(analyze(source));
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
  recent.set(source, analysis);
  return analysis;
}

function deepFreeze(a: ShellAnalysis): ShellAnalysis {
  for (const c of a.commands) {
    Object.freeze(c.argv);
    Object.freeze(c.literal);
    Object.freeze(c.assigns);
    Object.freeze(c);
  }
  Object.freeze(a.commands);
  Object.freeze(a.opaque);
  return Object.freeze(a);
}

function analyze(source: string): ShellAnalysis {
  const S = sh();
  let file: ShNode;
  try {
    parser ??= S.NewParser(S.KeepComments(false), S.Variant(S.LangBash));
    file = parser.Parse(source, "command");
  } catch (err) {
    const message = (err as { Error?: () => string }).Error?.() ?? String(err);
    return { parsed: false, error: message, commands: [], opaque: ["syntax the parser rejects"] };
  }
  const seen = walk(S, file, source);
  if (!seen.ampersandRedirect) {
    return { parsed: true, commands: seen.commands, opaque: seen.opaque };
  }
  // `a &>/dev/null b c`: bash redirects a's output, but a POSIX sh (dash, Debian's sh, which
  // runs the shell tool and hooks) reads `a &` and then `>/dev/null b c`, a command of its own.
  // Both readings count: the commands of each, and never literal enough to approve.
  const opaque = [...seen.opaque, "&> or &>> (bash and sh read it differently)"];
  const commands = [...seen.commands];
  try {
    posixParser ??= S.NewParser(S.KeepComments(false), S.Variant(S.LangPOSIX));
    const known = new Set(commands.map((c) => JSON.stringify(c.argv)));
    for (const c of walk(S, posixParser.Parse(source, "command"), source).commands) {
      if (!known.has(JSON.stringify(c.argv))) commands.push(c);
    }
  } catch {
    // sh rejects the line: it runs nothing, so bash's reading is all there is to check.
  }
  return { parsed: true, commands, opaque };
}

/** The simple commands and opaque constructs of one syntax tree. */
function walk(
  S: ShSyntax,
  file: ShNode,
  source: string,
): { commands: ShellCommand[]; opaque: string[]; ampersandRedirect: boolean } {
  const table = operators(S);
  const commands: ShellCommand[] = [];
  const opaque = new Set<string>();
  let ampersandRedirect = false;
  const substitutions: Array<[number, number]> = [];
  const text = (n: ShNode) => source.slice(n.Pos().Offset(), n.End().Offset());
  S.Walk(file, (node: ShNode | null) => {
    if (!node) return true;
    const type = S.NodeType(node);
    const reason = OPAQUE_NODES[type];
    if (reason) opaque.add(reason);
    if (type === "CmdSubst" || type === "ProcSubst") {
      substitutions.push([node.Pos().Offset(), node.End().Offset()]);
    } else if ((type === "SglQuoted" || type === "DblQuoted") && node.Dollar) {
      opaque.add("$'…' or $\"…\" quoting (bash and sh read it differently)");
    } else if (type === "Stmt") {
      if (node.Background) opaque.add("background job (&)");
      if (node.Coprocess) opaque.add("coprocess");
    } else if (type === "BinaryCmd") {
      if (table.get(1000 + (node.Op as number)) === "|&") opaque.add("|&");
    } else if (type === "Redirect") {
      const op = table.get(node.Op as number) ?? "?";
      if (op === "&>" || op === "&>>") ampersandRedirect = true;
      if (op === "<<" || op === "<<-") {
        const body = node.Hdoc as ShNode | null;
        if (body?.Parts.some((p: ShNode) => S.NodeType(p) !== "Lit")) {
          opaque.add("here-document with expansions");
        }
      } else {
        const target = node.Word ? wordValue(S, node.Word as ShNode, text) : undefined;
        if (!target || !redirectIsHarmless(op, target.value, target.literal)) {
          opaque.add(`redirection ${op}${target ? target.value : ""}`);
        }
      }
    } else if (type === "CallExpr") {
      const start = node.Pos().Offset();
      const words = (node.Args as ShNode[]).map((w) => wordValue(S, w, text));
      commands.push({
        argv: words.map((w) => w.value),
        literal: words.map((w) => w.literal),
        assigns: (node.Assigns as ShNode[]).map(text),
        substituted: substitutions.some(([a, b]) => start >= a && start < b),
      });
    }
    return true;
  });
  return { commands, opaque: [...opaque], ampersandRedirect };
}

/** A word's value after quote removal, and whether nothing in it expands. */
function wordValue(
  S: ShSyntax,
  word: ShNode,
  text: (n: ShNode) => string,
): { value: string; literal: boolean } {
  let value = "";
  let literal = true;
  (word.Parts as ShNode[]).forEach((part, i) => {
    const type = S.NodeType(part);
    if (type === "Lit") {
      const raw = part.Value as string;
      // Unquoted glob characters and a leading ~ expand to names the text does not show.
      if (/(^|[^\\])[*?[]/.test(raw) || (i === 0 && raw.startsWith("~"))) literal = false;
      value += unescapeLiteral(raw, false);
    } else if (type === "SglQuoted" && !part.Dollar) {
      value += part.Value as string;
    } else if (type === "DblQuoted" && !part.Dollar) {
      for (const inner of part.Parts as ShNode[]) {
        if (S.NodeType(inner) === "Lit") value += unescapeLiteral(inner.Value as string, true);
        else {
          literal = false;
          value += text(inner);
        }
      }
    } else {
      literal = false;
      value += text(part);
    }
  });
  return { value, literal };
}
