/** Secrets in logs (issue 8, attack 9): URLs redacted in every log, error and doctor line; 0600. */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDoctor } from "../../src/cli/commands/doctor.js";
import { createChatClient } from "../../src/llm/client.js";
import { reply, script } from "../../src/sim/index.js";
import { userRequest } from "../llm/helpers.js";
import { keel, worldPerTest } from "./harness.js";

const newWorld = worldPerTest();
const SECRETS = ["s3cret", "t0ps3cret"];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? [join(dir, e.name), ...filesUnder(join(dir, e.name))] : [join(dir, e.name)],
  );
}

describe("secrets", () => {
  it("an http hook URL's userinfo and ?token= never reach hooks-audit.jsonl or the session's hook log; every file 0600, folder 0700", async () => {
    const world = await newWorld(
      script(reply().tool("list_dir", { path: "." }), reply().text("done")),
    );
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: "http", url: "http://alice:s3cret@127.0.0.1:9/hook?token=t0ps3cret" },
              ],
            },
          ],
        },
      }),
    );
    const r = await keel(world, ["run", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const audit = readFileSync(join(world.home, "hooks-audit.jsonl"), "utf8");
    expect(audit).toContain("http://***@127.0.0.1:9/hook?token=***");
    const written = filesUnder(world.home).filter((p) => !p.endsWith("settings.json"));
    const logs = written.filter((p) => statSync(p).isFile());
    expect(logs.some((p) => p.endsWith(".hooks.jsonl"))).toBe(true);
    expect(logs.some((p) => /[0-9a-f-]{36}\.jsonl$/.test(p))).toBe(true);
    for (const p of logs) {
      const text = readFileSync(p, "utf8");
      for (const s of SECRETS) expect(text, p).not.toContain(s);
      expect((statSync(p).mode & 0o777).toString(8), p).toBe("600");
    }
    for (const d of written.filter((p) => statSync(p).isDirectory())) {
      expect((statSync(d).mode & 0o777).toString(8), d).toBe("700");
    }
    expect(r.stdout + r.stderr).not.toContain("s3cret");
  });

  it("the llm client's errors (and retries) do not print a base URL's credentials or query", async () => {
    const client = createChatClient({
      baseUrl: "http://bob:s3cret@127.0.0.1:9/v1?key=t0ps3cret",
      apiKey: "sk-abcdefgh",
      maxRetries: 1,
      sleep: async () => {},
    });
    const messages: string[] = [];
    for await (const ev of client.stream(userRequest("hi"))) {
      if (ev.type === "error") messages.push(ev.message);
    }
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) for (const s of SECRETS) expect(m).not.toContain(s);
  });

  it("keel doctor does not print a base URL's credentials or query", async () => {
    const world = await newWorld(script(reply().text("x")));
    let out = "";
    await runDoctor({
      cwd: world.project,
      env: {
        PATH: process.env.PATH,
        HOME: world.root,
        KEEL_HOME: world.home,
        DEEPSEEK_API_KEY: "sk-abcdefgh",
        KEEL_BASE_URL: "http://carol:s3cret@127.0.0.1:9/v1?key=t0ps3cret",
      },
      offline: false,
      timeoutMs: 2000,
      write: (t) => {
        out += t;
      },
    });
    expect(out).toContain("http://***@127.0.0.1:9/v1?key=***");
    for (const s of SECRETS) expect(out).not.toContain(s);
  });
});
