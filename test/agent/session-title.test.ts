/** A UserPromptSubmit hook's `sessionTitle` names the session in the session list. */
import { describe, expect, it } from "vitest";
import { openAgentSession } from "../../src/agent/session.js";
import { listSessions } from "../../src/session/list.js";
import { reply, script } from "../../src/sim/index.js";
import {
  agentFor,
  collect,
  commandHook,
  hookScript,
  worldPerTest,
  writeSettings,
} from "./harness.js";

const newWorld = worldPerTest();

describe("sessionTitle", () => {
  it("is recorded and listed; the last title wins; sessions without one have none", async () => {
    const w = await newWorld(script(reply().text("one"), reply().text("two"), reply().text("3")));
    const hook = hookScript(
      w,
      "title.sh",
      `prompt=$(jq -r .prompt)
echo "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"UserPromptSubmit\\",\\"sessionTitle\\":\\"About $prompt\\"}}"`,
    );
    writeSettings(w, { UserPromptSubmit: [commandHook(hook)] });
    const session = openAgentSession({ keelHome: w.home, projectDir: w.project, model: "m" });
    const agent = await agentFor(w, { session });
    await collect(agent.runTurn("parsing"));
    expect(listSessions({ keelHome: w.home, projectDir: w.project })[0]?.title).toBe(
      "About parsing",
    );
    await collect(agent.runTurn("lexing"));
    const [listed] = listSessions({ keelHome: w.home, projectDir: w.project });
    expect(listed?.title).toBe("About lexing");
    expect(listed?.firstPrompt).toBe("parsing");
    await collect(agent.end());

    writeSettings(w, {});
    const plain = openAgentSession({ keelHome: w.home, projectDir: w.project, model: "m" });
    const other = await agentFor(w, { session: plain });
    await collect(other.runTurn("untitled"));
    const mine = listSessions({ keelHome: w.home, projectDir: w.project }).find(
      (s) => s.id === plain.id,
    );
    expect(mine?.title).toBeUndefined();
    await collect(other.end());
  });
});
