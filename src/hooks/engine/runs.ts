/** How one firing's planned hooks are grouped into runs and run, bounded, alongside each other. */
import type { PreparedHook } from "../plan.js";

/** Whether a hook runs in the background (`async`/`asyncRewake` command and http hooks). */
export function runsInBackground(h: PreparedHook): boolean {
  return (
    (h.def.handler.async === true || h.def.handler.asyncRewake === true) &&
    (h.def.handler.type === "command" || h.def.handler.type === "http")
  );
}

/** Hooks that run one after another; `stopsAtBlock`: the first block or deny ends the run;
 *  `chains`: each hook sees the input as the hooks before it changed it (chain.ts). */
export interface Run {
  hooks: PreparedHook[];
  stopsAtBlock: boolean;
  chains: boolean;
}

/**
 * The firing's hooks as runs: a dialect whose agent runs hooks one after another
 * (`inOrderChain`) gets one run of all its hooks in configuration order, ended by the first
 * block unless the dialect runs them all (`inOrderRunsAll`); a dialect with a sequential group
 * among the firing's hooks (Gemini, Qwen) one run of all its hooks, all of which run, each
 * seeing the input as the ones before it rewrote it;
 * every other hook is a run of its own. Runs go alongside each other.
 */
export function runsOf(hooks: readonly PreparedHook[]): Run[] {
  const runs: Run[] = [];
  const chains = new Map<string, Run>();
  // One sequential group among a dialect's hooks of this firing makes all of them one run
  // (Gemini CLI and Qwen Code: `sequential = entries.some(e => e.sequential)`).
  const sequential = new Set(
    hooks.filter((h) => h.def.sequentialGroup !== undefined).map((h) => h.dialect.name),
  );
  for (const h of hooks) {
    const dialectChain = h.dialect.inOrderChain;
    const key =
      dialectChain !== undefined
        ? `dialect:${dialectChain}`
        : sequential.has(h.dialect.name)
          ? `sequential:${h.dialect.name}`
          : undefined;
    if (key === undefined) {
      runs.push({ hooks: [h], stopsAtBlock: false, chains: false });
      continue;
    }
    const chain = chains.get(key);
    if (chain) chain.hooks.push(h);
    else {
      const inOrder = dialectChain !== undefined;
      const fresh = {
        hooks: [h],
        stopsAtBlock: inOrder && h.dialect.inOrderRunsAll !== true,
        chains: !inOrder || h.dialect.inOrderPassesInput === true,
      };
      chains.set(key, fresh);
      runs.push(fresh);
    }
  }
  return runs;
}

/** `fn` over `items`, at most `limit` at once; results in the items' order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return out;
}
