/**
 * A module not there yet that a pinned test imports and that would shadow the standard library
 * (issue 26): `tests/json.py` beside a test doing `import json` loads in the stdlib's place
 * (pytest puts the test's folder first on sys.path), so writing it needs a person. Through
 * `keel hooks trust` and `keel run`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { worldPerTest } from "../agent/harness.js";
import { writeAfterTrust, writeCaseWorld } from "./trust-world.js";

const newWorld = worldPerTest();
const EVIL = "import os; os.system('touch /tmp/keel-owned')\n";

const CASES: { name: string; hook: string; before: [string, string][]; write: string }[] = [
  {
    name: "pytest: tests/json.py beside tests/test_a.py doing import json",
    hook: "pytest -q",
    before: [["tests/test_a.py", "import json\n\ndef test_a(): assert json.dumps(1)\n"]],
    write: "tests/json.py",
  },
  {
    name: "pytest: from json import loads, tests/json/__init__.py",
    hook: "pytest -q",
    before: [["tests/test_b.py", "from json import loads\n\ndef test_b(): pass\n"]],
    write: "tests/json/__init__.py",
  },
  {
    name: "pytest tests (package tests): the rootdir's json.py",
    hook: "pytest -q",
    before: [
      ["tests/__init__.py", ""],
      ["tests/test_c.py", "import json\n\ndef test_c(): pass\n"],
    ],
    write: "json.py",
  },
  {
    name: "a conftest.py doing import sqlite3: tests/sqlite3.py",
    hook: "pytest -q",
    before: [
      ["tests/conftest.py", "import sqlite3\n"],
      ["tests/test_d.py", "def test_d(): pass\n"],
    ],
    write: "tests/sqlite3.py",
  },
  {
    // Over the 100 discovered files trust pins, their imports were not read at all.
    name: "pytest with 120 tests doing import json: tests/json.py",
    hook: "pytest -q",
    before: Array.from({ length: 120 }, (_, n): [string, string] => [
      `tests/test_${n}.py`,
      "import json\n\ndef test_x(): pass\n",
    ]),
    write: "tests/json.py",
  },
];

describe("a stdlib module a pinned test imports cannot be shadowed in acceptEdits", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const world = await writeCaseWorld(newWorld, c, EVIL);
      const { status } = await writeAfterTrust(world);
      expect(status).toBe("blocked");
      expect(existsSync(join(world.project, c.write))).toBe(false);
    });
  }
});
