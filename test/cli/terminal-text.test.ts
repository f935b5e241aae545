/** Escape sequences from the model or a hook never reach the terminal raw (issue 8). */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { columns } from "../../src/cli/format/text.js";
import { createTextStripper, stripControls, visibleCommand } from "../../src/cli/terminal-text.js";
import { reply, script } from "../../src/sim/index.js";
import { keel as keelIn, worldPerTest } from "../agent/harness.js";
import { keel } from "../helpers/cli.js";
import { sandbox } from "./hooks-helpers.js";

const NASTY =
  "safe\x1b]52;c;ZXZpbA==\x07 text\x1b[2J\x1b[H\x1b[1;1Hmoved\ttab\r\nnext\rover\x1b[31mred\x1b[0m\x9b2J\u202eend\n";
// Whole escape sequences are dropped; a bare CR, the 8-bit CSI and the bidi override are shown.
const CLEAN = "safe textmoved\ttab\nnext\\roverred\\x9b2J\\u{202e}end\n";

describe("createTextStripper", () => {
  it("cleans the same however the text is split (a sequence split across pieces never slips through)", () => {
    for (let cut = 0; cut <= NASTY.length; cut++) {
      for (let cut2 = cut; cut2 <= NASTY.length; cut2 += 7) {
        const s = createTextStripper();
        const out =
          s.push(NASTY.slice(0, cut)) +
          s.push(NASTY.slice(cut, cut2)) +
          s.push(NASTY.slice(cut2)) +
          s.flush();
        expect(out, `cuts ${cut}/${cut2}`).toBe(CLEAN);
      }
    }
    expect(stripControls(NASTY)).toBe(CLEAN);
  });
});

const newWorld = worldPerTest();

describe("keel run", () => {
  it("text mode writes the model's text without escape bytes (OSC 52, clear screen, cursor moves)", async () => {
    const world = await newWorld(script(reply().text(NASTY)));
    const r = await keelIn(world, ["run", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(CLEAN);
    expect(r.stdout).not.toMatch(/[\x1b\x9b\r]/);
  });

  it("json and stream-json stay exact JSON carrying the text, with no raw escape byte", async () => {
    for (const format of ["json", "stream-json"]) {
      const world = await newWorld(script(reply().text(NASTY)));
      const r = await keelIn(world, ["run", "hi", "--output-format", format]);
      expect(r.stdout).not.toMatch(/[\x1b\x9b]/);
      const last = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "");
      expect(last.result).toBe(NASTY);
    }
  });
});

describe("keel hooks test", () => {
  it("a hook's escape sequences are shown, never acted on, in the human output", async () => {
    const box = await sandbox();
    try {
      await mkdir(box.keelHome, { recursive: true });
      const hook = join(box.root, "loud.sh");
      await writeFile(hook, `printf 'bad\\033]52;c;ZXZpbA==\\007\\033[2J done' >&2; exit 1\n`);
      await writeFile(
        join(box.keelHome, "settings.json"),
        JSON.stringify({
          hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `sh ${hook}` }] }] },
        }),
      );
      const input = JSON.stringify({ command: "ls" });
      const r = await keel([
        "hooks",
        "test",
        "PreToolUse",
        "--tool",
        "shell",
        "--input",
        input,
        "--cwd",
        box.project,
      ]);
      expect(r.stdout + r.stderr).toContain("bad\\e]52;c;ZXZpbA==\\x07\\e[2J done");
      expect(r.stdout + r.stderr).not.toMatch(/[\x1b\x07]/);
    } finally {
      await box.cleanup();
    }
  });
});

describe("visibleCommand (a command shown for a trust decision)", () => {
  it("leaves a plain command as it is, with its non-ASCII and astral characters", () => {
    for (const text of ["npm test", "echo 'héllo' > \"$f\"", "printf 😀 | wc -c", "a\ud800b", ""]) {
      expect(visibleCommand(text)).toBe(text);
    }
  });

  it("shows edge spaces, runs of spaces, controls and invisible characters", () => {
    expect(visibleCommand(" ls")).toBe("·ls");
    expect(visibleCommand("ls ")).toBe("ls·");
    expect(visibleCommand("ls  -l")).toBe("ls··-l");
    expect(visibleCommand(`ls${" ".repeat(9)}x`)).toBe("ls ␠×9 x");
    expect(visibleCommand("a\tb\nc\x1b[31m")).toBe("a\\tb\\nc\\e[31m");
    expect(visibleCommand("rm\u200b -rf")).toBe("rm\\u{200b} -rf");
    expect(visibleCommand("x\u202ey 😀")).toBe("x\\u{202e}y 😀");
  });
});

describe("columns", () => {
  it("counts code points: an astral character is one column, a lone surrogate one", () => {
    expect(columns("abc")).toBe(3);
    expect(columns("a😀b")).toBe(3);
    expect(columns("a\ud800b")).toBe(3);
    expect(columns("")).toBe(0);
  });
});
