/** Keel's provider key is not in the environment of the shell tool or hooks (issue 8). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childProcessEnv } from "../../src/agent/provider-env.js";
import { reply, script } from "../../src/sim/index.js";
import { keel, worldPerTest } from "./harness.js";

const newWorld = worldPerTest();

const PROBE = 'echo "key=[$DEEPSEEK_API_KEY] copy=[$COPY_OF_KEY]"';

async function probe(settings: Record<string, unknown>) {
  const world = await newWorld(
    script(reply().tool("shell", { command: PROBE }), reply().text("done")),
  );
  world.env.COPY_OF_KEY = world.env.DEEPSEEK_API_KEY;
  const hookOut = join(world.root, "hook-env.txt");
  writeFileSync(
    join(world.home, "settings.json"),
    JSON.stringify({
      ...settings,
      hooks: {
        PreToolUse: [{ hooks: [{ type: "command", command: `env > "${hookOut}"` }] }],
      },
    }),
  );
  const saved = process.env.COPY_OF_KEY;
  process.env.COPY_OF_KEY = world.env.DEEPSEEK_API_KEY;
  try {
    const r = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(0);
  } finally {
    if (saved === undefined) delete process.env.COPY_OF_KEY;
    else process.env.COPY_OF_KEY = saved;
  }
  const toolResult = world.sim.requests[1]?.messages.at(-1)?.content ?? "";
  return { toolResult, hookEnv: readFileSync(hookOut, "utf8"), key: world.env.DEEPSEEK_API_KEY };
}

describe("provider key", () => {
  it("the shell tool and hooks do not get DEEPSEEK_API_KEY or a copy of it", async () => {
    const { toolResult, hookEnv, key } = await probe({});
    expect(toolResult).toContain("key=[] copy=[]");
    expect(hookEnv).toContain("KEEL_PROJECT_DIR=");
    expect(hookEnv).not.toContain(key);
  });

  it('passes it when the user settings say {"env": {"passProviderKey": true}}', async () => {
    const { toolResult, hookEnv, key } = await probe({ env: { passProviderKey: true } });
    expect(toolResult).toContain(`key=[${key}]`);
    expect(hookEnv).toContain(`DEEPSEEK_API_KEY=${key}`);
  });

  it("without the user setting the key is removed, other variables kept", () => {
    const env = { DEEPSEEK_API_KEY: "sk-0123456789", PATH: "/bin" };
    expect(childProcessEnv(env, { keelHome: "/nonexistent-keel-home" })).toEqual({ PATH: "/bin" });
  });

  it("removes a variable the key is part of, and a base URL that carries credentials", () => {
    const key = "sk-0123456789";
    const keelHome = "/nonexistent-keel-home";
    const env = {
      DEEPSEEK_API_KEY: key,
      MY_AUTH: `Bearer ${key}`,
      KEEL_BASE_URL: "http://proxyuser:secret@127.0.0.1:8080/v1",
      PATH: "/bin",
    };
    expect(childProcessEnv(env, { keelHome })).toEqual({ PATH: "/bin" });
    for (const url of ["https://api.example.com/v1?key=abc", "https://user@api.example.com"]) {
      expect(childProcessEnv({ KEEL_BASE_URL: url }, { keelHome })).toEqual({});
    }
    const plain = { KEEL_BASE_URL: "http://127.0.0.1:8080/v1", SHORT: "sk-01" };
    expect(childProcessEnv(plain, { keelHome })).toEqual(plain);
  });
});
