import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadLlmConfig, saveLlmConfig } from "../../src/llm/config.js";

let home = "";
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "keel-llm-config-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("loadLlmConfig", () => {
  it("uses defaults when nothing is configured", async () => {
    const result = await loadLlmConfig({ keelHome: home, env: {} });
    expect(result).toMatchObject({
      ok: true,
      config: {
        apiKey: null,
        baseUrl: "https://api.deepseek.com",
        model: "deepseek-v4-flash",
        cheapModel: "deepseek-v4-flash",
        sources: { apiKey: "none", baseUrl: "default", model: "default" },
      },
    });
  });

  it("reads the file and lets the environment override it", async () => {
    await writeFile(
      join(home, "config.json"),
      JSON.stringify({
        apiKey: "file-key",
        baseUrl: "http://127.0.0.1:9/",
        model: "deepseek-v4-pro",
        other: 1,
      }),
    );
    const fromFile = await loadLlmConfig({ keelHome: home, env: {} });
    expect(fromFile).toMatchObject({
      ok: true,
      config: {
        apiKey: "file-key",
        baseUrl: "http://127.0.0.1:9",
        model: "deepseek-v4-pro",
        sources: { apiKey: "file" },
      },
    });
    const env = {
      DEEPSEEK_API_KEY: "env-key",
      KEEL_BASE_URL: "http://127.0.0.1:8",
      KEEL_MODEL: "deepseek-chat",
    };
    const fromEnv = await loadLlmConfig({ keelHome: home, env });
    expect(fromEnv).toMatchObject({
      ok: true,
      config: {
        apiKey: "env-key",
        baseUrl: "http://127.0.0.1:8",
        model: "deepseek-chat",
        sources: { apiKey: "env", baseUrl: "env", model: "env" },
      },
    });
  });

  it("rejects a KEEL_BASE_URL that is not an http(s) URL, naming the variable", async () => {
    for (const bad of ["notaurl", "ftp://127.0.0.1", "api.deepseek.com"]) {
      const result = await loadLlmConfig({ keelHome: home, env: { KEEL_BASE_URL: bad } });
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(new RegExp(`^KEEL_BASE_URL: .*"${bad}"`)),
      });
    }
  });

  it("reads a file saved with a byte-order mark (Windows editors), and saves over it", async () => {
    const path = join(home, "config.json");
    await writeFile(path, `\uFEFF${JSON.stringify({ apiKey: "sk-bom", model: "deepseek-chat" })}`);
    expect(await loadLlmConfig({ keelHome: home, env: {} })).toMatchObject({
      ok: true,
      config: { apiKey: "sk-bom", model: "deepseek-chat" },
    });
    expect(await saveLlmConfig({ keelHome: home, values: { model: "m2" } })).toEqual({
      ok: true,
      path,
    });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ apiKey: "sk-bom", model: "m2" });
  });

  it("names the path and the field of a malformed file", async () => {
    const path = join(home, "config.json");
    await writeFile(path, JSON.stringify({ model: 42 }));
    const result = await loadLlmConfig({ keelHome: home, env: {} });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(new RegExp(`^${path}: model: `));
    await writeFile(path, "{ nope");
    const broken = await loadLlmConfig({ keelHome: home, env: {} });
    expect(broken).toMatchObject({ ok: false, error: expect.stringContaining("not valid JSON") });
  });
});

describe("saveLlmConfig", () => {
  it("writes mode 0600, keeps other keys and round-trips", async () => {
    const path = join(home, "config.json");
    await writeFile(path, JSON.stringify({ theme: "dark", model: "deepseek-chat" }), {
      mode: 0o644,
    });
    const saved = await saveLlmConfig({
      keelHome: home,
      values: { apiKey: "sk-new", model: null },
    });
    expect(saved).toEqual({ ok: true, path });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ theme: "dark", apiKey: "sk-new" });
    expect(await loadLlmConfig({ keelHome: home, env: {} })).toMatchObject({
      ok: true,
      config: { apiKey: "sk-new", model: "deepseek-v4-flash" },
    });
  });

  it("refuses an invalid value", async () => {
    const saved = await saveLlmConfig({ keelHome: home, values: { baseUrl: "not a url" } });
    expect(saved).toMatchObject({ ok: false, error: expect.stringContaining("baseUrl") });
  });
});
