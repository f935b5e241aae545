/** The one child-environment builder (src/base/child-env.ts): secrets by name and by value. */
import { describe, expect, it } from "vitest";
import {
  buildChildEnv,
  isSafeProjectHookEnvName,
  withoutSecretValues,
} from "../../src/base/child-env.js";

const KEY = "sk-live-0123456789";

describe("buildChildEnv", () => {
  it("drops secret names, values holding a secret, and a base URL with credentials", () => {
    const env = buildChildEnv({
      DEEPSEEK_API_KEY: KEY,
      KEEL_API_KEY: "other-secret-value",
      KEEL_GITHUB_TOKEN: "ghp_abcdefgh",
      AUTH: `Bearer ${KEY}`,
      COPY: "other-secret-value",
      KEEL_BASE_URL: "https://u:p@example.test/v1",
      PATH: "/usr/bin",
    });
    expect(env).toEqual({ PATH: "/usr/bin" });
  });

  it("the key Keel uses counts even when it is not in the environment", () => {
    expect(buildChildEnv({ X: KEY, Y: "fine" }, { apiKey: KEY })).toEqual({ Y: "fine" });
  });

  it("passes everything when the user's settings say so", () => {
    expect(buildChildEnv({ DEEPSEEK_API_KEY: KEY }, { passSecrets: true })).toEqual({
      DEEPSEEK_API_KEY: KEY,
    });
  });

  it("withoutSecretValues drops what an env file exported that holds a secret", () => {
    expect(withoutSecretValues({ A: KEY, B: "ok" }, { DEEPSEEK_API_KEY: KEY })).toEqual({
      B: "ok",
    });
  });
});

describe("project hook env allowlist", () => {
  it("allows locale, colour and HOOK_* names only", () => {
    for (const ok of ["LANG", "LC_ALL", "TZ", "NO_COLOR", "HOOK_MODE"]) {
      expect(isSafeProjectHookEnvName(ok)).toBe(true);
    }
    for (const bad of [
      "PATH",
      "XDG_CONFIG_HOME",
      "GIT_DIR",
      "LD_PRELOAD",
      "NODE_OPTIONS",
      "EDITOR",
      "BASH_ENV",
      "PYTHONPATH",
      "HOME",
      "MAKEFLAGS",
    ]) {
      expect(isSafeProjectHookEnvName(bad)).toBe(false);
    }
  });
});
