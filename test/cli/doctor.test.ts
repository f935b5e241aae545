import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runDoctor } from "../../src/cli/commands/doctor.js";
import {
  checkApiAnswer,
  checkModelListed,
  checkNode,
  maskedSuffix,
} from "../../src/cli/commands/doctor-checks.js";
import { type Simulator, startSimulator } from "../../src/sim/server.js";

const KEY = "sk-secret-0123456789abcdef";
let dir: string;
let home: string;
let project: string;
let server: Server;
let url: string;
let status = 200;
let answer: { body: string; type?: string } = { body: "{}" };

beforeAll(async () => {
  server = createServer((req, res) => {
    res.statusCode = req.url === "/models" ? status : 404;
    if (answer.type) res.setHeader("content-type", answer.type);
    res.end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "keel-doctor-"));
  home = join(dir, "keel-home");
  project = join(dir, "proj");
  await mkdir(home);
  await mkdir(project);
  process.env.KEEL_HOME = home;
  status = 200;
  answer = { body: "{}" };
});
afterEach(async () => {
  delete process.env.KEEL_HOME;
  await rm(dir, { recursive: true, force: true });
});

async function doctor(opts: { env?: NodeJS.ProcessEnv; offline?: boolean } = {}) {
  let out = "";
  const code = await runDoctor({
    cwd: project,
    env: { PATH: process.env.PATH, HOME: dir, ...opts.env },
    offline: opts.offline ?? false,
    timeoutMs: 3000,
    write: (t) => {
      out += t;
    },
  });
  return { code, out };
}

async function writeConfig(value: unknown, mode = 0o600) {
  const path = join(home, "config.json");
  await writeFile(path, JSON.stringify(value));
  await chmod(path, mode);
}

describe("keel doctor", () => {
  it("passes with a key and a reachable endpoint, and never prints the key", async () => {
    await writeConfig({ apiKey: KEY, baseUrl: url });
    const { code, out } = await doctor();
    expect(out).toContain("✓ api key  from config.json (…cdef)");
    expect(out).toMatch(/✓ endpoint .*\/models: HTTP 200/);
    expect(out).toContain("All checks passed.");
    expect(out).not.toContain(KEY);
    expect(out).not.toContain("0123456789");
    expect(code).toBe(0);
  });

  it("says when checks passed with warnings", async () => {
    await writeConfig({ apiKey: KEY, baseUrl: url }, 0o644);
    const { code, out } = await doctor();
    expect(out).toMatch(/! config .*readable by others/);
    expect(out).toContain("All checks passed (1 warning above).");
    expect(code).toBe(0);
  });

  it("fails without a key and skips the endpoint", async () => {
    const { code, out } = await doctor();
    expect(out).toContain("✗ api key  no API key");
    expect(out).toContain("- endpoint skipped: no API key");
    expect(code).toBe(1);
  });

  it("takes the key from DEEPSEEK_API_KEY", async () => {
    const { code, out } = await doctor({ env: { DEEPSEEK_API_KEY: KEY, KEEL_BASE_URL: url } });
    expect(out).toContain("from DEEPSEEK_API_KEY (…cdef)");
    expect(out).not.toContain(KEY);
    expect(code).toBe(0);
  });

  it("does not tick a config file that does not exist", async () => {
    const { out } = await doctor({ env: { DEEPSEEK_API_KEY: KEY, KEEL_BASE_URL: url } });
    expect(out).not.toMatch(/✓ config/);
    expect(out).toMatch(/- config +no .*config\.json \(defaults and environment/);
  });

  it("fails when the endpoint rejects the key", async () => {
    status = 401;
    await writeConfig({ apiKey: KEY, baseUrl: url });
    const { code, out } = await doctor();
    expect(out).toContain("the key was rejected (HTTP 401)");
    expect(code).toBe(1);
  });

  it("fails when the endpoint is unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await writeConfig({ apiKey: KEY, baseUrl: `http://127.0.0.1:${port}` });
    const { code, out } = await doctor();
    expect(out).toMatch(/✗ endpoint .*unreachable/);
    expect(code).toBe(1);
  });

  it("says so when the network check is skipped", async () => {
    await writeConfig({ apiKey: KEY, baseUrl: url });
    const { code, out } = await doctor({ offline: true });
    expect(out).toContain("- endpoint skipped (--offline)");
    expect(code).toBe(0);
  });

  it("warns about a config file others can read", async () => {
    await writeConfig({ apiKey: KEY, baseUrl: url }, 0o644);
    const { out } = await doctor({ offline: true });
    expect(out).toContain("readable by others (mode 644)");
  });

  it("fails on a malformed config file, naming it and the place in one line", async () => {
    await writeFile(join(home, "config.json"), "{ nope");
    const { code, out } = await doctor({ offline: true });
    expect(out).toMatch(
      new RegExp(`✗ config   ${join(home, "config.json")}: invalid JSON: .* at 1:3\n`),
    );
    expect(code).toBe(1);
    // A trailing comma is called one (V8 says "Expected double-quoted property name").
    await writeFile(join(home, "config.json"), '{\n  "apiKey": "x",\n}\n');
    const again = await doctor({ offline: true });
    expect(again.out).toContain(
      `${join(home, "config.json")}: invalid JSON: trailing comma at 3:1`,
    );
  });

  it("lists hook sources and fails on their errors", async () => {
    await writeConfig({ apiKey: KEY, baseUrl: url });
    await mkdir(join(project, ".keel"));
    await writeFile(
      join(project, ".keel", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "(", hooks: [{ type: "command", command: "./missing.sh" }] }],
        },
      }),
    );
    await writeFile(join(project, ".hooks.json"), "{ broken");
    const { code, out } = await doctor({ offline: true });
    expect(out).toMatch(/✗ hooks +.*\.keel\/settings\.json \[keel\]/);
    expect(out).toMatch(/✗ hooks +\.hooks\.json/);
    expect(out).toContain("missing.sh");
    expect(out).toContain("project hooks are not trusted");
    expect(code).toBe(1);
  });
});

describe("doctor checks", () => {
  it.each([
    ["22.12.0", "ok"],
    ["22.23.3", "ok"],
    ["24.0.0", "ok"],
    ["22.11.9", "fail"],
    ["20.18.0", "fail"],
  ])("node %s is %s", (version, status) => {
    expect(checkNode(version).status).toBe(status);
  });

  it("masks keys down to four characters", () => {
    expect(maskedSuffix(KEY)).toBe("…cdef");
    expect(maskedSuffix("short")).toBe("…");
  });
});

describe("keel doctor checks the model against the simulator's /models", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ script: { replies: [] } });
  });
  afterAll(() => sim.close());

  it("ticks a model the endpoint serves", async () => {
    await writeConfig({ apiKey: KEY, baseUrl: sim.url });
    const { code, out } = await doctor();
    expect(out).toContain("✓ model    deepseek-v4-flash is served");
    expect(code).toBe(0);
  });

  it("warns about a model the endpoint does not list, naming the ones it does", async () => {
    await writeConfig({ apiKey: KEY, baseUrl: sim.url });
    const { out } = await doctor({ env: { KEEL_MODEL: "deepseek-v9" } });
    expect(out).toMatch(
      /! model +deepseek-v9 is not among the endpoint's models \(deepseek-v4-flash, deepseek-v4-pro, keel-sim-vision\)/,
    );
    expect(out).toContain("All checks passed (1 warning above).");
  });

  it("says nothing about the model when /models is not a list", async () => {
    await writeConfig({ apiKey: KEY, baseUrl: url });
    const { out } = await doctor({ env: { KEEL_MODEL: "deepseek-v9" } });
    expect(out).not.toMatch(/^. model /m);
    expect(checkModelListed("{}", "m")).toBeNull();
    expect(checkModelListed("not json", "m")).toBeNull();
  });
});

describe("keel doctor and an endpoint that is not the API", () => {
  it("fails on an HTML page answered with HTTP 200, saying what to check", async () => {
    answer = { body: "<!doctype html><html><body>Welcome</body></html>", type: "text/html" };
    await writeConfig({ apiKey: KEY, baseUrl: url });
    const { code, out } = await doctor();
    expect(out).toContain(
      `✗ endpoint ${url}/models: HTTP 200, but the answer is an HTML page, not the API: is the base URL missing /v1, or pointing at a web page?\n`,
    );
    expect(out).not.toMatch(/✓ endpoint/);
    expect(out).toContain("Some checks failed.");
    expect(code).toBe(1);
  });

  it("warns about other text that is not JSON; JSON of any shape is the API's", () => {
    expect(checkApiAnswer("u", "  <html>", null)?.status).toBe("fail");
    expect(checkApiAnswer("u", "ok", "text/html; charset=utf-8")?.status).toBe("fail");
    expect(checkApiAnswer("u", "Service up\n", "text/plain")).toEqual({
      status: "warn",
      check: "endpoint",
      detail:
        'u: HTTP 200, but the answer is not JSON (starts "Service up"); is the base URL the API\'s?',
    });
    expect(checkApiAnswer("u", "", null)?.detail).toContain("not JSON (empty)");
    expect(checkApiAnswer("u", '{"object":"list","data":[]}', "application/json")).toBeNull();
  });
});

describe("keel doctor reads the MCP settings without starting servers", () => {
  const withKey = { env: { DEEPSEEK_API_KEY: KEY }, offline: true };

  it("fails on a .mcp.json that is not valid JSON", async () => {
    await writeFile(join(project, ".mcp.json"), '{"mcpServers": {"x": ');
    const { code, out } = await doctor(withKey);
    expect(out).toContain("✗ mcp      no MCP servers; 1 problem below\n");
    expect(out).toContain("✗ mcp      .mcp.json: invalid JSON: unexpected end of file at 1:22\n");
    expect(out).toContain("Some checks failed.");
    expect(code).toBe(1);
  });

  it("prints a settings file's JSON error once, under hooks; the MCP line points there", async () => {
    await mkdir(join(project, ".keel"), { recursive: true });
    await writeFile(join(project, ".keel", "settings.json"), '{"hooks": {"Stop": [,]}}');
    const { code, out } = await doctor(withKey);
    expect(out.match(/invalid JSON/g)).toHaveLength(1);
    expect(out).toMatch(/✗ hooks {4}\.keel\/settings\.json:1:\d+: invalid JSON: /);
    expect(out).toContain(
      "✗ mcp      .keel/settings.json does not parse (the error is under hooks above); no MCP servers are read from it\n",
    );
    expect(code).toBe(1);
  });

  it("fails on servers that cannot start (command, script, variable) and warns when untrusted", async () => {
    await writeFile(
      join(project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          absent: { command: "keel-no-such-command", args: ["x"] },
          script: { command: "node", args: ["server.js"] },
          // biome-ignore lint/suspicious/noTemplateCurlyInString: written to the config unexpanded
          token: { command: "node", args: ["-e", "1"], env: { T: "${KEEL_TEST_UNSET_TOKEN}" } },
          fine: { command: "node", args: ["-e", "1"] },
        },
      }),
    );
    const { code, out } = await doctor(withKey);
    expect(out).toContain(
      "✗ mcp      4 servers (absent [stdio], fine [stdio], script [stdio], token [stdio]) from .mcp.json; not started here (keel mcp list starts them); 3 problems below\n",
    );
    expect(out).toContain(
      "✗ mcp      absent (.mcp.json) will not start: command not found: keel-no-such-command (not on PATH)\n",
    );
    expect(out).toContain(
      "✗ mcp      script (.mcp.json) will not start: script not found: server.js\n",
    );
    expect(out).toContain(
      "✗ mcp      token (.mcp.json) will not start: missing environment variable KEEL_TEST_UNSET_TOKEN\n",
    );
    expect(out).toContain(
      "! mcp      project MCP servers are not trusted and will not start: absent, fine, script, token (keel hooks trust)\n",
    );
    expect(code).toBe(1);
  });

  it("reports permission rules: counts applied, warns for those not applied, not as MCP failures", async () => {
    await mkdir(join(project, ".keel"));
    await writeFile(
      join(project, ".keel", "settings.json"),
      JSON.stringify({ permissions: { allow: ["Bash(npm test:*)"], deny: ["Read(./.env)"] } }),
    );
    await mkdir(join(dir, ".claude"));
    await writeFile(
      join(dir, ".claude", "settings.json"),
      JSON.stringify({ permissions: { allow: ["NotebookEdit", "Bash(ls:*)"] } }),
    );
    const { code, out } = await doctor(withKey);
    expect(out).not.toContain("✗ mcp");
    expect(out).toMatch(
      /! permissions 2 rules applied \(1 deny, 1 allow\) from ~\/\.claude\/settings\.json, \.keel\/settings\.json; 2 below\n/,
    );
    expect(out).toContain(
      "! permissions allow NotebookEdit (~/.claude/settings.json) is not applied: Keel has no NotebookEdit tool\n",
    );
    expect(out).toContain(
      "! permissions allow Bash(npm test:*) (.keel/settings.json) is not applied: project allow rules apply only once the project is trusted (keel hooks trust)\n",
    );
    expect(code).toBe(0);
  });

  it("fails on a damaged trust store, naming it; silent while the stores read", async () => {
    expect((await doctor(withKey)).out).not.toMatch(/ trust /);
    await writeFile(join(home, "mcp-trust.json"), '{"version": 1, "projects": {},}');
    const { code, out } = await doctor(withKey);
    expect(out).toContain(
      "✗ trust    ~/keel-home/mcp-trust.json: invalid JSON: trailing comma at 1:31; nothing in it is trusted",
    );
    expect(code).toBe(1);
  });

  it("ticks servers it finds nothing wrong with", async () => {
    await writeFile(
      join(home, "settings.json"),
      JSON.stringify({ mcpServers: { fine: { command: "node", args: ["-e", "1"] } } }),
    );
    const { code, out } = await doctor(withKey);
    expect(out).toMatch(
      /✓ mcp +1 server \(fine \[stdio\]\) from .*settings\.json; not started here/,
    );
    expect(out).toContain("All checks passed");
    expect(code).toBe(0);
  });
});
