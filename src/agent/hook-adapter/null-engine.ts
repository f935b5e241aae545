/** A hooks engine with no hooks: every firing passes (library use without hooks, benchmarks). */
import type { HookEngine, HookListing } from "../../hooks/index.js";
import { passDecision } from "./fire.js";

/** Creates an engine that runs nothing. */
export function createNullHookEngine(): HookEngine {
  const listing: HookListing = {
    hooks: [],
    problems: [],
    allProblems: [],
    sources: [],
    projectTrust: { trusted: true, hash: "", hasProjectHooks: false },
  };
  return {
    fire: async ({ event }) => passDecision(event),
    listing: () => listing,
    reload: async () => listing,
    changedOnDisk: async () => false,
    trust: async () => {},
    untrust: async () => {},
    stats: () => [],
    takeAsyncResults: () => [],
    shutdown: async () => {},
  };
}
