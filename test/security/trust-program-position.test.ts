/**
 * Which word of a hook's command runs is decided by the shell parser (issue 26,
 * src/hooks/program-words.ts), not guessed from the flat word list: past `NAME=value`, `command`,
 * `exec`, `time`, `nice -n 5`, `timeout 5`, inside `if …; then …; fi`, `( … )` and `{ …; }`.
 * A script given to `sh` there is pinned even before it exists (the model creating it in
 * acceptEdits is blocked, headless), one that exists is pinned (editing it shows in the next
 * trust's diff), and a program word with an expansion reaches its folder or cannot be resolved.
 * Through `keel hooks trust` and `keel run` against the simulator.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, worldPerTest } from "../agent/harness.js";
import { keelHook, put, writeAfterTrust } from "./trust-world.js";

const newWorld = worldPerTest();

const EVIL = "touch /tmp/keel-owned\n";

/** `{}` stands for the script operand: `tools/run` (not there yet) or `x.sh` (there). */
const FORMS: { form: string; toCome: string; there: string }[] = [
  "FOO=1 sh {}",
  "command sh {}",
  "exec sh {}",
  "time sh {}",
  "nice -n 5 sh {}",
  "timeout 5 sh {}",
  "if true; then sh {}; fi",
  "{ sh {}; }",
]
  .map((form) => ({ form, toCome: "tools/run", there: "x.sh" }))
  .concat([{ form: "(cd tools && sh {})", toCome: "run", there: "../x.sh" }]);

describe("program position from the parser", () => {
  for (const { form, toCome, there } of FORMS) {
    it(`${form.replace("{}", toCome)}: the script to come is pinned`, async () => {
      const world = await newWorld(
        script(
          reply().tool("write_file", { path: "tools/run", content: EVIL }),
          reply().text("ok"),
        ),
      );
      put(world, "tools/readme.txt", "x\n");
      keelHook(world, form.replace("{}", toCome));
      const got = await writeAfterTrust(world);
      expect(got.status).toBe("blocked");
      expect(existsSync(join(world.project, "tools/run"))).toBe(false);
    });

    it(`${form.replace("{}", there)}: the script there is pinned`, async () => {
      const world = await newWorld(script(reply().text("ok")));
      put(world, "x.sh", "exit 0\n");
      put(world, "tools/readme.txt", "x\n");
      keelHook(world, form.replace("{}", there));
      expect((await keel(world, ["hooks", "trust", "--cwd", world.project])).code).toBe(0);
      put(world, "x.sh", EVIL);
      const again = await keel(world, ["hooks", "trust", "--cwd", world.project]);
      expect(again.stdout).toMatch(/- file x\.sh [0-9a-f]{16}/);
    });
  }

  for (const hook of ["true && tools/$f", "FOO=1 tools/$f", 'timeout 5 "tools/$f"']) {
    it(`${hook}: a new file in tools needs a person`, async () => {
      const world = await newWorld(
        script(
          reply().tool("write_file", { path: "tools/new", content: EVIL }),
          reply().text("ok"),
        ),
      );
      put(world, "tools/readme.txt", "x\n");
      keelHook(world, hook);
      const got = await writeAfterTrust(world);
      expect(got.listing).toMatch(/cannot be pinned: reaches tools \(the hook runs tools\/\$f\)/);
      expect(got.status).toBe("blocked");
    });
  }

  it('nice -n 5 "$RUNNER": named as a program Keel cannot resolve', async () => {
    const world = await newWorld(script(reply().text("ok")));
    keelHook(world, 'nice -n 5 "$RUNNER"');
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.stdout).toMatch(/cannot be pinned: \$RUNNER/);
  });

  it("a bare program name is found on PATH, not recorded as a project file", async () => {
    const world = await newWorld(script(reply().text("ok")));
    keelHook(world, "FOO=1 timeout 5 make lint");
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.stdout).not.toMatch(/lint \(absent\)|file lint/);
  });
});
