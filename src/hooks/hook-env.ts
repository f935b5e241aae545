/**
 * Hook environments: the user's environment, the shaped payload's variables over it, the hook
 * file's own over those. Built as an object whose prototype is the user's environment (a copy
 * shared by every hook of the engine, never changed; not frozen, which would forbid the layers
 * above from setting the same names) and whose own properties are this run's ~10 variables: a
 * fresh copy of ~50 variables per hook run, then turned into `KEY=value` strings, cost ~30 µs;
 * the spawner turns the shared part into strings once (fast-spawn.ts).
 *
 * Readers see every variable: property reads and `for…in` include the prototype's (so does
 * child_process.spawn, deliberately); `Object.entries` and spreading see only this run's.
 */
export type HookEnv = Readonly<Record<string, string>>;

export class HookEnvironments {
  private readonly base: HookEnv;

  constructor(base: Record<string, string>) {
    this.base = { ...base };
  }

  /** The environment for `shaped` variables from a hook file with `own` ones. */
  get(shaped: HookEnv, own: HookEnv | undefined): HookEnv {
    return Object.assign(Object.create(this.base) as Record<string, string>, shaped, own);
  }
}
