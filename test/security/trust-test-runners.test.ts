/**
 * Trust pins what a trusted test-runner hook runs (issue 26): jest's and vitest's config and the
 * setup files it names, and the package files `go test` builds (its *_test.go, TestMain), like
 * pytest's conftest.py (trust-side-attacks.test.ts 06). The model in acceptEdits may not write
 * them: the write needs a person, so headless it is blocked. Through `keel hooks trust` and
 * `keel run` against the simulator.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

function put(world: World, rel: string, text: string): void {
  const at = join(world.project, rel);
  mkdirSync(join(at, ".."), { recursive: true });
  writeFileSync(at, text);
}

function postHook(world: World, command: string): void {
  put(
    world,
    ".keel/settings.json",
    JSON.stringify({
      hooks: { PostToolUse: [{ matcher: "write_file", hooks: [{ type: "command", command }] }] },
    }),
  );
}

/** Trusts the hooks, then has the model write `path` in acceptEdits; returns the trust listing
 *  and the call's status. */
async function writeAfterTrust(world: World, path: string) {
  const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
  expect(t.code, t.stderr).toBe(0);
  const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
  if (r.stdout === "") throw new Error(r.stderr);
  const status = JSON.parse(r.stdout).toolCalls[0].status as string;
  return { listing: t.stdout, status, path: join(world.project, path) };
}

const EVIL = "require('node:fs').writeFileSync('/tmp/owned', 'x');\n";

describe("test runners' files are pinned by trust", () => {
  it("vitest: the setup file its config names is pinned and needs a person", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "test/setup.ts", content: EVIL }),
        reply().text("ok"),
      ),
    );
    put(
      world,
      "vitest.config.ts",
      "export default { test: { setupFiles: ['./test/setup.ts'] } };\n",
    );
    put(world, "test/setup.ts", "// setup\n");
    postHook(world, "npx vitest run >/dev/null 2>&1; exit 0");
    const got = await writeAfterTrust(world, "test/setup.ts");
    expect(got.status).toBe("blocked");
    expect(readFileSync(got.path, "utf8")).toBe("// setup\n");
  });

  it("jest through npm test: package.json's jest.setupFiles is pinned", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "jest.setup.js", content: EVIL }),
        reply().text("ok"),
      ),
    );
    put(
      world,
      "package.json",
      JSON.stringify({
        scripts: { test: "jest --silent" },
        jest: { setupFiles: ["<rootDir>/jest.setup.js"] },
      }),
    );
    put(world, "jest.setup.js", "// setup\n");
    postHook(world, "npm test >/dev/null 2>&1; exit 0");
    const got = await writeAfterTrust(world, "jest.setup.js");
    expect(got.status).toBe("blocked");
    expect(readFileSync(got.path, "utf8")).toBe("// setup\n");
  });

  it("jest: a jest.config.js that does not exist yet may not be created", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "jest.config.js", content: EVIL }),
        reply().text("ok"),
      ),
    );
    postHook(world, "npx jest >/dev/null 2>&1; exit 0");
    const got = await writeAfterTrust(world, "jest.config.js");
    expect(got.status).toBe("blocked");
    expect(existsSync(got.path)).toBe(false);
  });

  it("go test: a new *_test.go with a TestMain in the package needs a person", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", {
          path: "main_test.go",
          content: 'package main\nimport "testing"\nfunc TestMain(m *testing.M) {}\n',
        }),
        reply().text("ok"),
      ),
    );
    put(world, "go.mod", "module example.com/x\n\ngo 1.22\n");
    put(world, "main.go", "package main\nfunc main() {}\n");
    postHook(world, "go test >/dev/null 2>&1; exit 0");
    const got = await writeAfterTrust(world, "main_test.go");
    expect(got.listing).toContain("pinned: the files matching *.go");
    expect(got.status).toBe("blocked");
    expect(existsSync(got.path)).toBe(false);
  });

  it("go test ./pkg/...: the folder cannot be pinned, is named so, and is protected", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", {
          path: "pkg/deep/x_test.go",
          content: "package deep\nfunc init() {}\n",
        }),
        reply().text("ok"),
      ),
    );
    put(world, "go.mod", "module example.com/x\n\ngo 1.22\n");
    put(world, "pkg/a.go", "package pkg\n");
    postHook(world, "go test ./pkg/... >/dev/null 2>&1; exit 0");
    const got = await writeAfterTrust(world, "pkg/deep/x_test.go");
    expect(got.listing).toContain("cannot be pinned: reaches pkg");
    expect(got.status).toBe("blocked");
    expect(existsSync(got.path)).toBe(false);
  });

  it("control: a file no runner reaches is written in acceptEdits", async () => {
    const world = await newWorld(
      script(reply().tool("write_file", { path: "notes.txt", content: "x" }), reply().text("ok")),
    );
    put(
      world,
      "vitest.config.ts",
      "export default { test: { setupFiles: ['./test/setup.ts'] } };\n",
    );
    postHook(world, "npx vitest run >/dev/null 2>&1; exit 0");
    // The write goes through, so the hook really runs `npx vitest run`: with no vitest in the
    // project, npx fetched it from the registry (~7 s, and network). A project that runs vitest
    // has it installed; a stub bin stands in for it.
    put(world, "node_modules/.bin/vitest", "#!/bin/sh\nexit 0\n");
    chmodSync(join(world.project, "node_modules/.bin/vitest"), 0o755);
    const got = await writeAfterTrust(world, "notes.txt");
    expect(got.status).toBe("ok");
  });
});
