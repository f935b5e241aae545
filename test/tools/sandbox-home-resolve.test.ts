/**
 * The sandbox hides what Keel itself calls home and KEEL_HOME (src/base/resolve-paths.ts), not
 * what the child's environment happens to say: HOME unset or empty (cron, systemd, `env -i`)
 * and a relative KEEL_HOME once left both readable to a command Keel approved on its own. And
 * programs that live in a hidden place (a HOME under /tmp, set-up's Node in ~/.cache) stay
 * runnable without showing the rest of that place.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accountHome } from "../../src/base/resolve-paths.js";
import { sandboxStatus } from "../../src/tools/sandbox.js";
import { createShellTool } from "../../src/tools/shell.js";
import { NO_SIGNAL, tempDir } from "./helpers.js";

const status = sandboxStatus();
if (!status.available) console.warn(`sandbox tests skipped: ${status.reason}`);

let project: ReturnType<typeof tempDir>;
const saved = { ...process.env };
beforeEach(() => {
  project = tempDir();
});
afterEach(() => {
  project.cleanup();
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

const run = async (command: string, env: NodeJS.ProcessEnv) => {
  const tool = createShellTool({ cwd: project.dir, env });
  return tool.run({ command }, { signal: NO_SIGNAL, sandboxed: true });
};

const without = (env: NodeJS.ProcessEnv, ...keys: string[]) => {
  const out = { ...env };
  for (const k of keys) delete out[k];
  return out;
};

/** A regular file directly in the account's home, to look for from inside the sandbox. */
function fileInAccountHome(): string | undefined {
  const home = accountHome();
  if (home === undefined || /^\/(var\/)?tmp(\/|$)/.test(home)) return undefined;
  try {
    const name = readdirSync(home).find((n) => {
      try {
        return statSync(join(home, n)).isFile();
      } catch {
        return false;
      }
    });
    return name === undefined ? undefined : join(home, name);
  } catch {
    return undefined;
  }
}

describe.skipIf(!status.available)("the sandbox's home is Keel's home", () => {
  const probe = fileInAccountHome();

  it.skipIf(probe === undefined)(
    "HOME unset or empty: the account's home is hidden (reason to skip: no file in the account's home outside /tmp)",
    async () => {
      const file = probe ?? "";
      const look = `test -e '${file}' && echo VISIBLE || echo HIDDEN`;
      for (const home of [undefined, ""]) {
        if (home === undefined) delete process.env.HOME;
        else process.env.HOME = home;
        const r = await run(look, home === undefined ? without(process.env, "HOME") : process.env);
        expect(r.content).toContain("HIDDEN");
      }
    },
  );

  it("a relative KEEL_HOME is hidden, whether or not the child's environment names it", async () => {
    // Outside every other hidden place: inside the project, which the sandbox shows (the checkout
    // itself may sit under /tmp, as a CI clone does, and /tmp is private in the sandbox).
    const keelHome = mkdtempSync(join(project.dir, "keel-home-test-"));
    try {
      writeFileSync(join(keelHome, "config.json"), '{"apiKey":"sk-SECRET-IN-CONFIG"}');
      const look = `cat '${keelHome}/config.json'`;
      // The control: with KEEL_HOME elsewhere the folder is readable, so hiding is what is tested.
      process.env.KEEL_HOME = join(project.dir, "keel");
      expect((await run(look, process.env)).content).toContain("SECRET");
      process.env.KEEL_HOME = relative(process.cwd(), keelHome);
      expect(process.env.KEEL_HOME.startsWith("/")).toBe(false);
      expect((await run(look, process.env)).content).not.toContain("SECRET");
      // A child environment built without KEEL_HOME does not unhide it.
      expect((await run(look, without(process.env, "KEEL_HOME"))).content).not.toContain("SECRET");
      // Nor does HOME unset at the same time.
      delete process.env.HOME;
      expect((await run(look, without(process.env, "HOME"))).content).not.toContain("SECRET");
    } finally {
      rmSync(keelHome, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!status.available)("programs in a hidden place stay runnable", () => {
  let place: ReturnType<typeof tempDir>;
  beforeEach(() => {
    place = tempDir("keel-programs-");
  });
  afterEach(() => place.cleanup());

  const program = (path: string, text: string) => {
    writeFileSync(path, `#!/bin/sh\necho ${text}\n`);
    chmodSync(path, 0o755);
  };

  it("a PATH folder under /tmp and a link in it to a program beside it: run, nothing else shown", async () => {
    mkdirSync(join(place.dir, "bin"));
    mkdirSync(join(place.dir, "pkg"));
    program(join(place.dir, "bin", "prog"), "PROG-RAN");
    program(join(place.dir, "pkg", "real-tool"), "TOOL-RAN");
    symlinkSync("../pkg/real-tool", join(place.dir, "bin", "tool"));
    writeFileSync(join(place.dir, "secret.txt"), "SECRET-BESIDE");
    writeFileSync(join(place.dir, "pkg", "secret.txt"), "SECRET-IN-PKG");
    const env = { ...process.env, PATH: `${join(place.dir, "bin")}:/usr/bin:/bin` };
    const r = await run(
      `prog; tool; cat ${place.dir}/secret.txt ${place.dir}/pkg/secret.txt; ls ${place.dir}/pkg`,
      env,
    );
    expect(r.content).toContain("PROG-RAN");
    expect(r.content).toContain("TOOL-RAN");
    expect(r.content).not.toContain("SECRET");
    expect(r.content).not.toMatch(/^secret\.txt$/m);
    // Read-only, like everything else outside the private /tmp.
    const w = await run(`echo x > ${place.dir}/bin/prog; prog`, env);
    expect(w.content).toContain("PROG-RAN");
  });

  it("a HOME under /tmp: its PATH folder runs, its keys and KEEL_HOME stay hidden", async () => {
    const home = join(place.dir, "home");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    mkdirSync(join(home, ".local", "bin"), { recursive: true });
    mkdirSync(join(home, ".keel"));
    writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET-KEY");
    writeFileSync(join(home, ".keel", "config.json"), "SECRET-CONFIG");
    program(join(home, ".local", "bin", "mine"), "MINE-RAN");
    process.env.HOME = home;
    delete process.env.KEEL_HOME;
    const env = { ...process.env, PATH: `${join(home, ".local", "bin")}:${process.env.PATH}` };
    const r = await run(
      `mine; cat ${home}/.ssh/id_rsa ${home}/.keel/config.json; ls -A ${home}; "${process.execPath}" -e "console.log('NODE-RAN')"`,
      env,
    );
    expect(r.content).toContain("MINE-RAN");
    expect(r.content).toContain("NODE-RAN");
    expect(r.content).not.toContain("SECRET");
    expect(r.content).not.toMatch(/^\.ssh$/m);
  });

  it("a PATH folder that is a hidden place, or holds one, is not bound back", async () => {
    const home = join(place.dir, "home");
    mkdirSync(home);
    writeFileSync(join(home, "key"), "SECRET-HOME");
    process.env.HOME = home;
    const env = { ...process.env, PATH: `${home}:${place.dir}:/tmp:${process.env.PATH}` };
    const r = await run(`cat ${home}/key; ls /tmp`, env);
    expect(r.content).not.toContain("SECRET");
  });
});
