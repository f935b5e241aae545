/**
 * Trust reads a hook's command with the real shell parser (hooks/shell/parse.ts, mvdan-sh) as
 * well as the word tokenizer: `sh scripts/{lint,fmt}.sh` runs both scripts (bash's brace
 * expansion), so both are pinned and the model in acceptEdits may not rewrite either. Through
 * `keel hooks trust` and `keel run` against the simulator.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

function put(world: World, rel: string, text: string): void {
  const at = join(world.project, rel);
  mkdirSync(join(at, ".."), { recursive: true });
  writeFileSync(at, text);
}

async function editAfterTrust(command: string, target: string) {
  const world = await newWorld(
    script(
      reply().tool("write_file", { path: target, content: "#!/bin/sh\ntouch /tmp/owned\n" }),
      reply().text("ok"),
    ),
  );
  put(world, "scripts/lint.sh", "#!/bin/sh\nexit 0\n");
  put(world, "scripts/fmt.sh", "#!/bin/sh\nexit 0\n");
  put(
    world,
    ".claude/settings.json",
    JSON.stringify({
      hooks: { PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command }] }] },
    }),
  );
  const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
  expect(t.code, t.stderr).toBe(0);
  const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
  if (r.stdout === "") throw new Error(r.stderr);
  const status = JSON.parse(r.stdout).toolCalls[0].status as string;
  return { status, text: readFileSync(join(world.project, target), "utf8") };
}

describe("trust reads hook commands with the shell parser", () => {
  it("sh scripts/{lint,fmt}.sh: scripts/fmt.sh is pinned and needs a person", async () => {
    const got = await editAfterTrust("sh scripts/{lint,fmt}.sh", "scripts/fmt.sh");
    expect(got.status).toBe("blocked");
    expect(got.text).toBe("#!/bin/sh\nexit 0\n");
  });

  it("a here-document fed to bash: the script it runs is pinned", async () => {
    const got = await editAfterTrust(
      "bash <<'EOF'\nsh \"$CLAUDE_PROJECT_DIR\"/scripts/{fmt,lint}.sh\nEOF",
      "scripts/lint.sh",
    );
    expect(got.status).toBe("blocked");
    expect(got.text).toBe("#!/bin/sh\nexit 0\n");
  });

  it("control: a script the hook does not run is written", async () => {
    const got = await editAfterTrust("sh scripts/lint.sh", "scripts/fmt.sh");
    expect(got.status).toBe("ok");
  });
});
