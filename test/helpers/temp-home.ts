/** A temp KEEL_HOME and HOME set in process.env, so nothing touches the real ~/.keel. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The temp dirs; `restore` puts KEEL_HOME and HOME back and deletes `root`. */
export interface TempHome {
  root: string;
  /** `$KEEL_HOME` (`<root>/keel-home`, created). */
  keelHome: string;
  /** `$HOME` (`<root>/home`, created). */
  home: string;
  restore(): void;
}

/** Creates `<tmp>/<prefix>XXXX` (symlinks resolved) with both dirs and points the env at them. */
export function tempKeelHome(prefix: string): TempHome {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const keelHome = join(root, "keel-home");
  const home = join(root, "home");
  mkdirSync(keelHome, { recursive: true });
  mkdirSync(home, { recursive: true });
  const saved = { KEEL_HOME: process.env.KEEL_HOME, HOME: process.env.HOME };
  process.env.KEEL_HOME = keelHome;
  process.env.HOME = home;
  return {
    root,
    keelHome,
    home,
    restore() {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
