/**
 * The session's shell directory (Claude Code's Bash cwd): where the next shell call starts. One
 * per session, kept in the pipeline's context (never a module global); each call takes a
 * snapshot of it when it is prepared (prepare.ts), so the hooks, the rules, the sandbox and the
 * command of that call all see one directory, and a call running beside it cannot move it
 * mid-way. A sub-agent has its own, starting at the project (subagent-core.ts): its `cd` does
 * not move its parent's shell.
 *
 * The changes are remembered with the user turn they happened in, so a rewind puts the shell
 * back where it was before the rewound turn, and recorded in the session file (a `shell_cwd`
 * event) so `--continue`/`--resume` start where the conversation left off — the file's rewind
 * events replayed with them (agent/session.ts), so a resumed session that was rewound starts
 * where the rewound conversation had its shell. Every directory,
 * recorded or live, is checked again before it is used (tools/shell-cwd.ts checkedCwd): one
 * that has left the project or gone puts the shell back at the project.
 */
import { checkedCwd } from "../../tools/index.js";
import type { ShellCwdRecord } from "../types.js";

export type { ShellCwdRecord };

export class SessionCwd {
  readonly #projectDir: string;
  #cwd: string;
  /** Each change with the user turn it came in (rewind). */
  readonly #changes: { turn: number; cwd: string }[] = [];

  constructor(
    projectDir: string,
    private readonly opts: {
      /** The user turn a change belongs to (the session's current turn). */
      turn?: () => number;
      /** Persists a change (the session's recordEvent). Must not throw. */
      record?: (r: { turn: number; cwd: string }) => void;
      /** A resumed session's records, in order: replayed to where it left off. */
      history?: readonly ShellCwdRecord[];
    } = {},
  ) {
    this.#projectDir = projectDir;
    for (const r of opts.history ?? []) {
      if ("rewind" in r) this.#dropFrom(r.turn);
      else this.#changes.push({ turn: r.turn, cwd: r.cwd });
    }
    this.#cwd = checkedCwd(projectDir, this.#changes.at(-1)?.cwd ?? projectDir).cwd;
  }

  /** The project directory (where the shell starts and is put back). */
  get projectDir(): string {
    return this.#projectDir;
  }

  /** The directory the next shell call starts in. */
  get(): string {
    return this.#cwd;
  }

  /** Moves the shell (after a call ended there; already checked by the shell tool). Returns
   *  the directory it left, or null when it did not move. */
  set(cwd: string): string | null {
    if (cwd === this.#cwd) return null;
    const old = this.#cwd;
    this.#cwd = cwd;
    const turn = this.opts.turn?.() ?? 0;
    this.#changes.push({ turn, cwd });
    this.opts.record?.({ turn, cwd });
    return old;
  }

  /** A rewind of the conversation to before user turn `turn`: the shell goes back to where it
   *  was then. Returns the directory it left, or null when it did not move. */
  rewindTo(turn: number): string | null {
    this.#dropFrom(turn);
    const back = checkedCwd(this.#projectDir, this.#changes.at(-1)?.cwd ?? this.#projectDir).cwd;
    if (back === this.#cwd) return null;
    const old = this.#cwd;
    this.#cwd = back;
    return old;
  }

  #dropFrom(turn: number): void {
    while (this.#changes.length > 0 && (this.#changes.at(-1)?.turn ?? 0) >= turn) {
      this.#changes.pop();
    }
  }
}
