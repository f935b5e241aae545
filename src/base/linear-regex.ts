/**
 * A regex test that runs in time linear in the text, lookarounds included: a Thompson NFA
 * walked one position at a time (no backtracking), and each lookaround answered for every
 * position at once by one more pass (a lookahead walks its reversed NFA from the end). Used for
 * patterns that come from the model or a repository (safe-glob.ts), where V8's backtracking
 * RegExp can pin the CPU for minutes on `*a*a*a…b` and block the event loop (and so SIGTERM).
 * Cost: O(text length × pattern size) per test.
 */
import { isWordCode, parseRegex, type RegexNode } from "./linear-regex-parse.js";

/** Instructions above this are refused (counted repetitions are copied out). */
const MAX_INSTRUCTIONS = 50_000;

type Assertion =
  | { kind: "bol" | "eol" }
  | { kind: "word"; negated: boolean }
  | { kind: "look"; id: number; negated: boolean };

type Instruction =
  | { op: "char"; test: (code: number) => boolean; next: number }
  | { op: "split"; a: number; b: number }
  | { op: "assert"; check: Assertion; next: number }
  | { op: "match" };

interface Program {
  code: Instruction[];
  start: number;
}

/** A compiled pattern: `test(text)` answers as `new RegExp(source, flags).test(text)` would. */
export interface LinearRegex {
  test(text: string): boolean;
}

/** Compiles `source` (JavaScript syntax, no backreferences); throws a clear error otherwise. */
export function linearRegex(source: string, flags = ""): LinearRegex {
  const parsed = parseRegex(source, flags);
  const main = compile(parsed.root);
  // A lookahead is answered by walking its pattern backwards from the end of the text.
  const looks = parsed.looks.map((l) => ({
    ahead: l.ahead,
    program: compile(l.ahead ? reversed(l.item) : l.item),
  }));
  return {
    test(text) {
      const holds: Uint8Array[] = [];
      const ctx = { text, holds };
      for (const look of looks) {
        holds.push(look.ahead ? runBackward(look.program, ctx) : runForward(look.program, ctx));
      }
      return runForward(main, ctx, true)[0] === 1;
    },
  };
}

/** The same strings, read right to left. Assertions are about a position, so they stay. */
function reversed(node: RegexNode): RegexNode {
  switch (node.t) {
    case "cat":
      return { t: "cat", items: node.items.map(reversed).reverse() };
    case "alt":
      return { t: "alt", items: node.items.map(reversed) };
    case "rep":
      return { ...node, item: reversed(node.item) };
    default:
      return node;
  }
}

function compile(root: RegexNode): Program {
  const code: Instruction[] = [{ op: "match" }];
  const push = (ins: Instruction): number => {
    if (code.length >= MAX_INSTRUCTIONS) throw new Error("regex too large to match safely");
    code.push(ins);
    return code.length - 1;
  };
  // Emits `node` followed by the instruction at `next`; returns where it starts.
  const emit = (node: RegexNode, next: number): number => {
    switch (node.t) {
      case "empty":
        return next;
      case "char":
        return push({ op: "char", test: node.test, next });
      case "cat":
        return node.items.reduceRight((after, item) => emit(item, after), next);
      case "alt":
        return node.items
          .map((item) => emit(item, next))
          .reduceRight((b, a) => push({ op: "split", a, b }));
      case "bol":
      case "eol":
        return push({ op: "assert", check: { kind: node.t }, next });
      case "word":
        return push({ op: "assert", check: { kind: "word", negated: node.negated }, next });
      case "look":
        return push({
          op: "assert",
          check: { kind: "look", id: node.id, negated: node.negated },
          next,
        });
      case "rep":
        return emitRepeat(node, next);
    }
  };
  const emitRepeat = (node: Extract<RegexNode, { t: "rep" }>, next: number): number => {
    let start: number;
    if (node.max === Infinity) {
      const loop = push({ op: "split", a: -1, b: next });
      (code[loop] as { a: number }).a = emit(node.item, loop);
      start = loop;
    } else {
      start = next;
      for (let i = node.min; i < node.max; i++) {
        start = push({ op: "split", a: emit(node.item, start), b: next });
      }
    }
    for (let i = 0; i < node.min; i++) start = emit(node.item, start);
    return start;
  };
  return { code, start: emit(root, 0) };
}

interface RunContext {
  text: string;
  /** Per lookaround (by id), 1 at each position where its pattern matches. */
  holds: Uint8Array[];
}

function assertionHolds(check: Assertion, pos: number, ctx: RunContext): boolean {
  const { text } = ctx;
  switch (check.kind) {
    case "bol":
      return pos === 0;
    case "eol":
      return pos === text.length;
    case "word": {
      const before = pos > 0 && isWordCode(text.charCodeAt(pos - 1));
      const after = pos < text.length && isWordCode(text.charCodeAt(pos));
      return (before !== after) !== check.negated;
    }
    case "look":
      return (ctx.holds[check.id]?.[pos] === 1) !== check.negated;
  }
}

/** The state set of a program at one position: added instructions and everything reachable
 *  from them without reading a character. */
class StateSet {
  readonly list: number[] = [];
  private readonly seen: Uint32Array;
  private generation = 1;
  matched = false;

  constructor(private readonly program: Program) {
    this.seen = new Uint32Array(program.code.length);
  }

  clear(): void {
    this.list.length = 0;
    this.matched = false;
    this.generation++;
  }

  add(start: number, pos: number, ctx: RunContext): void {
    const stack = [start];
    while (stack.length > 0) {
      const at = stack.pop() as number;
      if (this.seen[at] === this.generation) continue;
      this.seen[at] = this.generation;
      const ins = this.program.code[at] as Instruction;
      if (ins.op === "match") this.matched = true;
      else if (ins.op === "char") this.list.push(at);
      else if (ins.op === "split") stack.push(ins.b, ins.a);
      else if (assertionHolds(ins.check, pos, ctx)) stack.push(ins.next);
    }
  }
}

/**
 * Walks left to right, starting a thread at every position; marks each position where some
 * match ends. With `firstOnly`, stops at the first such position and marks index 0.
 */
function runForward(program: Program, ctx: RunContext, firstOnly = false): Uint8Array {
  const { text } = ctx;
  const ends = new Uint8Array(text.length + 1);
  let now = new StateSet(program);
  let next = new StateSet(program);
  for (let pos = 0; ; pos++) {
    now.add(program.start, pos, ctx);
    if (now.matched) {
      if (firstOnly) return Uint8Array.of(1);
      ends[pos] = 1;
    }
    if (pos === text.length) break;
    step(program, now, next, text.charCodeAt(pos), pos + 1, ctx);
    [now, next] = [next, now];
  }
  return firstOnly ? Uint8Array.of(0) : ends;
}

/** Walks a reversed program right to left; marks each position where a match of the original
 *  pattern starts. */
function runBackward(program: Program, ctx: RunContext): Uint8Array {
  const { text } = ctx;
  const starts = new Uint8Array(text.length + 1);
  let now = new StateSet(program);
  let next = new StateSet(program);
  for (let pos = text.length; ; pos--) {
    now.add(program.start, pos, ctx);
    if (now.matched) starts[pos] = 1;
    if (pos === 0) break;
    step(program, now, next, text.charCodeAt(pos - 1), pos - 1, ctx);
    [now, next] = [next, now];
  }
  return starts;
}

/** Reads one character: `next` becomes the states `now` moves to, closed at `pos`. */
function step(
  program: Program,
  now: StateSet,
  next: StateSet,
  code: number,
  pos: number,
  ctx: RunContext,
): void {
  next.clear();
  for (const at of now.list) {
    const ins = program.code[at] as Extract<Instruction, { op: "char" }>;
    if (ins.test(code)) next.add(ins.next, pos, ctx);
  }
  now.clear();
}
