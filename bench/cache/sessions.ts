/**
 * The benchmark's three scripted sessions, each run against a fresh simulator so nothing is
 * cached from another run: a 5-turn chat, 20 tool calls, and 60 turns with hooks injecting
 * context. `cacheHostile` switches on the agent's benchmark-only cache-breaking option.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "../../src/agent/agent.js";
import type { AgentEvent } from "../../src/agent/events.js";
import { createChatClient } from "../../src/llm/client.js";
import { reply, type ScriptBuilder, script, startSimulator } from "../../src/sim/index.js";
import { createBuiltinTools } from "../../src/tools/registry.js";
import { cacheHostileClient } from "./hostile-client.js";

/** What one run measured. */
export interface SessionResult {
  name: string;
  hostile: boolean;
  requests: number;
  promptTokens: number;
  hitTokens: number;
  cacheableTokens: number;
  costUsd: number;
  errors: string[];
}

/** A scripted session: its replies, the prompts of its user turns, and optional hooks. */
interface SessionDef {
  name: string;
  script: () => ScriptBuilder;
  prompts: string[];
  hooks?: (dir: string) => Record<string, unknown[]>;
  maxTurns?: number;
}

const paragraph = (i: number) =>
  `Step ${i}: the module parses its input once at the boundary, validates it with a schema, and hands typed values to the core. ` +
  "Errors are returned as values with a message that names the field, so callers never see a stack trace. ";

const FILES = ["src/a.ts", "src/b.ts", "src/c.ts", "README.md", "package.json"];

/** The three sessions of issue 3's benchmark. */
export const SESSIONS: SessionDef[] = [
  {
    name: "5-turn chat",
    script: () => {
      const s = script();
      for (let i = 0; i < 5; i++) s.text(paragraph(i).repeat(3));
      return s;
    },
    prompts: Array.from({ length: 5 }, (_, i) => `Question ${i}: explain step ${i} in detail.`),
  },
  {
    name: "20 tool calls",
    script: () => {
      const s = script();
      for (let i = 0; i < 20; i++) {
        const file = FILES[i % FILES.length] ?? "README.md";
        if (i % 4 === 3) s.tool("grep", { pattern: `value${i}`, path: "src" });
        else if (i % 4 === 2) s.tool("list_dir", { path: i % 8 === 2 ? "src" : "." });
        else s.tool("read_file", { path: file, offset: 1 + (i % 3) });
      }
      s.text("I read everything; the code is consistent.");
      return s;
    },
    prompts: ["Read through the project and check it is consistent."],
    maxTurns: 30,
  },
  {
    name: "60 turns + hooks",
    script: () => {
      const s = script();
      for (let i = 0; i < 60; i++) {
        if (i % 3 === 0)
          s.reply(reply().tool("read_file", { path: FILES[i % FILES.length] ?? "README.md" }));
        s.text(paragraph(i));
      }
      return s;
    },
    prompts: Array.from({ length: 60 }, (_, i) => `Turn ${i}: continue with the next step.`),
    hooks: (dir) => {
      const ups = join(dir, "ups.sh");
      writeFileSync(ups, '#!/bin/sh\ncat >/dev/null\necho "Branch: main; open files: 3"\n');
      const post = join(dir, "post.sh");
      writeFileSync(
        post,
        `#!/bin/sh\ncat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 0 problems"}}'\n`,
      );
      chmodSync(ups, 0o755);
      chmodSync(post, 0o755);
      return {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: ups }] }],
        PostToolUse: [{ matcher: "read_file", hooks: [{ type: "command", command: post }] }],
      };
    },
  },
];

function writeProject(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  for (const [i, f] of FILES.entries()) {
    writeFileSync(join(dir, f), `// ${f}\n${paragraph(i)}\nexport const value${i} = ${i};\n`);
  }
}

/** Runs one session against a fresh simulator. */
export async function runSession(def: SessionDef, hostile: boolean): Promise<SessionResult> {
  const root = mkdtempSync(join(tmpdir(), "keel-bench-"));
  const project = join(root, "project");
  const home = join(root, "home");
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeProject(project);
  if (def.hooks) {
    writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: def.hooks(root) }));
  }
  const sim = await startSimulator({ script: def.script(), keepBodies: false });
  const errors: string[] = [];
  const client = createChatClient({ baseUrl: sim.url, apiKey: "sk-bench" });
  try {
    const agent = await createAgent({
      projectDir: project,
      keelHome: home,
      homeDir: root,
      client: hostile ? cacheHostileClient(client) : client,
      model: "deepseek-v4-flash",
      tools: createBuiltinTools({ cwd: project }),
      permissionMode: "bypassPermissions",
      maxTurns: def.maxTurns ?? 10,
    });
    const note = (ev: AgentEvent) => {
      if (ev.type === "error") errors.push(ev.message);
    };
    for (const prompt of def.prompts) {
      for await (const ev of agent.runTurn(prompt)) note(ev);
    }
    for await (const ev of agent.end("exit")) note(ev);
    const reqs = sim.requests;
    return {
      name: def.name,
      hostile,
      requests: reqs.length,
      promptTokens: reqs.reduce((n, r) => n + r.promptTokens, 0),
      hitTokens: reqs.reduce((n, r) => n + r.hitTokens, 0),
      cacheableTokens: reqs.reduce((n, r) => n + r.cacheableLimitTokens, 0),
      costUsd: agent.stats().costUsd,
      errors,
    };
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}
