import { afterEach, describe, expect, it } from "vitest";
import { checkHookSpawner, checkSandbox } from "../../src/cli/commands/doctor-checks.js";
import { resetSandboxStatus } from "../../src/tools/sandbox.js";

afterEach(() => resetSandboxStatus());

describe("doctor: sandbox", () => {
  it("warns, naming the package, when bwrap is not on PATH", () => {
    resetSandboxStatus();
    const f = checkSandbox({ PATH: "/nonexistent" });
    expect(f).toMatchObject({ status: "warn", check: "sandbox" });
    expect(f.detail).toMatch(/apt-get install bubblewrap/);
    expect(f.detail).toMatch(/every one asks/);
  });

  it("says ok with the binary's path when it works here", (ctx) => {
    resetSandboxStatus();
    const f = checkSandbox();
    if (f.status !== "ok") ctx.skip(`bubblewrap is not usable here: ${f.detail}`);
    expect(f.detail).toMatch(/bwrap/);
  });
});

describe("doctor: hook spawner", () => {
  it("says whether hooks start through the native spawner", () => {
    expect(checkHookSpawner(true, "linux", null)).toMatchObject({ status: "ok", check: "spawner" });
    // Missing although the build did not say why: something is wrong (a warning).
    const missing = checkHookSpawner(false, "linux", null);
    expect(missing.status).toBe("warn");
    expect(missing.detail).toMatch(/npm run build/);
    // Skipped by the build, which said why: an optional piece, reported with the reason.
    const skipped = checkHookSpawner(false, "linux", "no C compiler (cc)");
    expect(skipped).toMatchObject({ status: "skip", check: "spawner" });
    expect(skipped.detail).toContain("no C compiler (cc)");
    expect(checkHookSpawner(false, "darwin", null).status).toBe("skip");
  });
});
