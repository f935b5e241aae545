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
  /** The two state sets a walk of it uses, made once (a program's walks never overlap: a
   *  lookaround inside it is another program). */
  sets?: [StateSet, StateSet];
}

/** A compiled pattern: `test(text)` answers as `new RegExp(source, flags).test(text)` would. */
export interface LinearRegex {
  test(text: string): boolean;
}

/** A lookaround's pattern, read in both directions: `near` answers it at one position (walking
 *  away from it until the threads die: a few characters for picomatch's `.`/`..` guards),
 *  `far` answers it at every position in one pass, used once the near walks have cost more. */
interface Look {
  ahead: boolean;
  near: Program;
  far: Program;
}

/** Compiles `source` (JavaScript syntax, no backreferences); throws a clear error otherwise. */
export function linearRegex(source: string, flags = ""): LinearRegex {
  const parsed = parseRegex(source, flags);
  const main = compile(parsed.root);
  const looks: Look[] = parsed.looks.map((l) => {
    const forward = compile(l.item);
    const backward = compile(reversed(l.item));
    return l.ahead
      ? { ahead: true, near: forward, far: backward }
      : { ahead: false, near: backward, far: forward };
  });
  return {
    test(text) {
      const ctx = new RunContext(text, looks);
      return run(main, ctx, 0, 1, "search") === 1;
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

/** One test's text and its lookarounds' answers, found as asked for. */
class RunContext {
  /** Per lookaround: per position 1 (holds), 0 (does not) or 2 (not known yet). */
  private readonly answers: Uint8Array[];
  /** Per lookaround: steps its near walks may still take before one far pass answers all. */
  private readonly budget: number[];

  constructor(
    readonly text: string,
    private readonly looks: readonly Look[],
  ) {
    this.answers = looks.map(() => new Uint8Array(text.length + 1).fill(2));
    this.budget = looks.map((l) => 4 * (text.length + 1) * l.near.code.length);
  }

  holds(check: Assertion, pos: number): boolean {
    const { text } = this;
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
        return (this.look(check.id, pos) === 1) !== check.negated;
    }
  }

  private look(id: number, pos: number): number {
    const answers = this.answers[id] as Uint8Array;
    if (answers[pos] !== 2) return answers[pos] as number;
    const look = this.looks[id] as Look;
    if ((this.budget[id] as number) > 0) {
      const steps = { taken: 0 };
      answers[pos] = run(look.near, this, pos, look.ahead ? 1 : -1, "anchored", steps);
      this.budget[id] = (this.budget[id] as number) - steps.taken;
      return answers[pos] as number;
    }
    // The near walks have cost as much as one pass over the text: answer every position now.
    const all = new Uint8Array(this.text.length + 1);
    run(
      look.far,
      this,
      look.ahead ? this.text.length : 0,
      look.ahead ? -1 : 1,
      "every",
      undefined,
      all,
    );
    answers.set(all);
    return answers[pos] as number;
  }
}

/** The state set of a program at one position: added instructions and everything reachable
 *  from them without reading a character. */
class StateSet {
  readonly list: Int32Array;
  size = 0;
  matched = false;
  private readonly seen: Uint32Array;
  private readonly stack: Int32Array;
  private generation = 1;

  constructor(private readonly program: Program) {
    const n = program.code.length;
    this.list = new Int32Array(n);
    this.seen = new Uint32Array(n);
    this.stack = new Int32Array(2 * n + 2);
  }

  clear(): void {
    this.size = 0;
    this.matched = false;
    this.generation++;
  }

  add(start: number, pos: number, ctx: RunContext): void {
    const { code } = this.program;
    const { stack, seen } = this;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const at = stack[--top] as number;
      if (seen[at] === this.generation) continue;
      seen[at] = this.generation;
      const ins = code[at] as Instruction;
      if (ins.op === "match") this.matched = true;
      else if (ins.op === "char") this.list[this.size++] = at;
      else if (ins.op === "split") {
        stack[top++] = ins.b;
        stack[top++] = ins.a;
      } else if (ctx.holds(ins.check, pos)) stack[top++] = ins.next;
    }
  }
}

/**
 * Walks the text from `from` in direction `dir` (1: right, -1: left, with a reversed program).
 * "search": a thread starts at every position; 1 when a match ends anywhere, else 0.
 * "anchored": one thread starts at `from`; 1 when it reaches a match, else 0.
 * "every": a thread starts at every position; `marks` gets 1 wherever a match ends.
 * `steps` counts the threads advanced (the cost of a near lookaround walk).
 */
function run(
  program: Program,
  ctx: RunContext,
  from: number,
  dir: 1 | -1,
  mode: "search" | "anchored" | "every",
  steps?: { taken: number },
  marks?: Uint8Array,
): number {
  const { text } = ctx;
  program.sets ??= [new StateSet(program), new StateSet(program)];
  let [now, next] = program.sets;
  now.clear();
  for (let pos = from; ; pos += dir) {
    if (mode !== "anchored" || pos === from) now.add(program.start, pos, ctx);
    if (now.matched) {
      if (mode !== "every") return 1;
      (marks as Uint8Array)[pos] = 1;
    }
    if (now.size === 0 && mode === "anchored") return 0;
    if (dir === 1 ? pos === text.length : pos === 0) return 0;
    const code = text.charCodeAt(dir === 1 ? pos : pos - 1);
    next.clear();
    for (let i = 0; i < now.size; i++) {
      const ins = program.code[now.list[i] as number] as Extract<Instruction, { op: "char" }>;
      if (ins.test(code)) next.add(ins.next, pos + dir, ctx);
    }
    if (steps) steps.taken += now.size + 1;
    now.clear();
    [now, next] = [next, now];
  }
}
