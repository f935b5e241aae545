/**
 * Trust's bounds never drop what they cannot hold in silence (issue 26,
 * src/hooks/executed-files.ts): past the bound on places recorded absent (an import's search
 * path), the folder of what could not be pinned is named `cannot be pinned` in the listing and
 * protected whole, so a module written there still needs a person. Through `keel hooks trust`
 * and `keel run`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { worldPerTest } from "../agent/harness.js";
import { keelHook, put, writeAfterTrust } from "./trust-world.js";

const newWorld = worldPerTest();

describe("a bound on what trust pins says what it left out", () => {
  it("more absent import places than the bound: the rest's folder is protected and named", async () => {
    const write = "tests/j_mod199.py";
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: write, content: "import os\n" }),
        reply().text("ok"),
      ),
    );
    // 10 tests × 200 imports of modules that are nowhere: thousands of places searched.
    for (const letter of "abcdefghij") {
      const imports = Array.from({ length: 200 }, (_, n) => `import ${letter}_mod${n}`).join("\n");
      put(world, `tests/test_${letter}.py`, `${imports}\n\ndef test_x(): pass\n`);
    }
    keelHook(world, "pytest -q");
    const { listing, status } = await writeAfterTrust(world);
    expect(listing).toMatch(
      /cannot be pinned: reaches tests \(more than \d+ places where a file would run/,
    );
    expect(status).toBe("blocked");
    expect(existsSync(join(world.project, write))).toBe(false);
  });
});
