/**
 * Cache across sessions with the day's extensions present (issue 27's evidence): a project with
 * a skill, an agent file and an MCP server (tools pinned into the prefix), two sessions in a row
 * against one simulator. What must hold: the second session's system message and tools array are
 * byte-identical to the first's (skills are listed sorted in the `skill` tool's description,
 * agent files in `task`'s, MCP tools in the tools array — all fixed at session start), so its
 * first request is served from the cache the first session filled.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "../../src/agent/agent.js";
import { createChatClient } from "../../src/llm/client.js";
import { script, startSimulator } from "../../src/sim/index.js";
import type { SimRequestRecord } from "../../src/sim/record.js";
import { createBuiltinTools } from "../../src/tools/registry.js";

const FAULT_SERVER = join(
  import.meta.dirname,
  "..",
  "..",
  "test",
  "fixtures",
  "mcp",
  "fault-server.mjs",
);

/** What the two sessions' first requests showed. */
export interface CrossSessionResult {
  systemSame: boolean;
  toolsSame: boolean;
  present: { skill: boolean; agent: boolean; mcp: boolean };
  secondFirst: { promptTokens: number; hitTokens: number };
  errors: string[];
}

function writeProject(project: string): void {
  const skill = join(project, ".claude", "skills", "release-notes");
  mkdirSync(skill, { recursive: true });
  writeFileSync(
    join(skill, "SKILL.md"),
    "---\nname: release-notes\ndescription: Write release notes from the git log since the last tag.\n---\n\nRead `git log`, group by type, write NOTES.md.\n",
  );
  const agents = join(project, ".claude", "agents");
  mkdirSync(agents, { recursive: true });
  writeFileSync(
    join(agents, "reviewer.md"),
    "---\nname: reviewer\ndescription: Reviews a diff for bugs and missing tests.\ntools: Read, Grep\n---\n\nYou review diffs. Name each problem with its file and line.\n",
  );
  writeFileSync(join(project, "README.md"), "# demo\n");
}

/** Runs the two sessions; the simulator keeps the bodies so their bytes can be compared. */
export async function runCrossSession(): Promise<CrossSessionResult> {
  const root = mkdtempSync(join(tmpdir(), "keel-bench-cross-"));
  const project = join(root, "project");
  const home = join(root, "home");
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeProject(project);
  const sim = await startSimulator({ script: script().text("first").text("second") });
  const client = createChatClient({ baseUrl: sim.url, apiKey: "sk-bench-cross" });
  const errors: string[] = [];
  const firsts: SimRequestRecord[] = [];
  try {
    for (const prompt of ["Summarise the project.", "What would you change first?"]) {
      const before = sim.requests.length;
      const agent = await createAgent({
        projectDir: project,
        keelHome: home,
        homeDir: root,
        client,
        model: "deepseek-v4-flash",
        tools: createBuiltinTools({ cwd: project }),
        permissionMode: "bypassPermissions",
        mcpServers: { docs: { command: process.execPath, args: [FAULT_SERVER, "ok"] } },
      });
      for await (const ev of agent.runTurn(prompt))
        if (ev.type === "error") errors.push(ev.message);
      for await (const ev of agent.end("exit")) if (ev.type === "error") errors.push(ev.message);
      const first = sim.requests[before];
      if (first) firsts.push(first);
      else errors.push(`session "${prompt}" sent no request`);
    }
    const [a, b] = firsts;
    const tools = a?.toolsText ?? "";
    return {
      systemSame: a !== undefined && b !== undefined && a.messageTexts[0] === b.messageTexts[0],
      toolsSame: a !== undefined && b !== undefined && a.toolsText === b.toolsText,
      present: {
        skill: tools.includes("release-notes"),
        agent: tools.includes("reviewer"),
        mcp: tools.includes("mcp__docs__echo"),
      },
      secondFirst: { promptTokens: b?.promptTokens ?? 0, hitTokens: b?.hitTokens ?? 0 },
      errors,
    };
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}
