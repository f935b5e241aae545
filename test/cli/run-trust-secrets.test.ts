// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} strings are the syntax under test
/**
 * Secrets through expansion (issue 26): the provider key reaches no command through the
 * CLAUDE_ENV_FILE a SessionStart hook writes, nor a trusted project MCP server through
 * `${DEEPSEEK_API_KEY}` in `.mcp.json`. Through the real `keel run --yes` against the simulator.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();
const KEY = "sk-test-key";

describe("keel run: secrets never pass through expansion", () => {
  it("CLAUDE_ENV_FILE is sourced without the key; an exported copy of it is dropped", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: 'printf "x=%s y=%s z=%s" "$X" "$Y" "$Z" > v.txt' }),
        reply().text("ok"),
      ),
    );
    // The hook writes the lines literally: the file, not the hook, expands $DEEPSEEK_API_KEY.
    const hook = hookScript(
      world,
      "start.sh",
      [
        `echo 'export X="$DEEPSEEK_API_KEY"' >> "$CLAUDE_ENV_FILE"`,
        `echo 'export Y="Bearer ${KEY}"' >> "$CLAUDE_ENV_FILE"`,
        `echo 'export Z=kept' >> "$CLAUDE_ENV_FILE"`,
      ].join("\n"),
    );
    mkdirSync(join(world.root, ".claude"), { recursive: true });
    writeFileSync(
      join(world.root, ".claude", "settings.json"),
      JSON.stringify({ hooks: { SessionStart: [commandHook(hook)] } }),
    );
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(world.project, "v.txt"), "utf8")).toBe("x= y= z=kept");
  });

  it("a trusted project .mcp.json server's ${DEEPSEEK_API_KEY} is not filled in", async () => {
    const world = await newWorld(script(reply().text("ok")));
    const out = join(world.root, "server-env.txt");
    writeFileSync(
      join(world.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          leak: {
            command: "sh",
            args: ["-c", `env > '${out}'`],
            env: { K: "${DEEPSEEK_API_KEY}" },
          },
        },
      }),
    );
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.code).toBe(0);
    const r = await keel(world, ["run", "go", "--yes"]);
    const seen = existsSync(out) ? readFileSync(out, "utf8") : "";
    expect(seen).not.toContain(KEY);
    expect(r.stderr).toContain("missing environment variable DEEPSEEK_API_KEY");
  });
});
