import { mkdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  formatLocalTime,
  relativeTime,
  renderSessions,
  shortIds,
} from "../../src/cli/commands/sessions.js";
import { createSession } from "../../src/session/index.js";
import { keel } from "../helpers/cli.js";
import { type TempHome, tempKeelHome } from "../helpers/temp-home.js";

let root: string;
let keelHome: string;
let projectA: string;
let projectB: string;
let temp: TempHome;

beforeEach(() => {
  temp = tempKeelHome("keel-sessions-cli-");
  root = temp.root;
  keelHome = temp.keelHome;
  projectA = join(root, "alpha");
  projectB = join(root, "beta");
  for (const d of [projectA, projectB]) mkdirSync(d, { recursive: true });
});

afterEach(() => temp.restore());

/** Writes a real session with `prompts` user turns; its file's mtime is set to `updated`. */
function session(opts: { project: string; id: string; prompts: string[]; updated: Date }): void {
  const s = createSession({
    keelHome,
    projectDir: opts.project,
    model: "deepseek-v4-flash",
    id: opts.id,
  });
  opts.prompts.forEach((prompt, i) => {
    s.appendMessage(JSON.stringify({ role: "user", content: prompt }), { turn: i + 1 });
    s.appendMessage(JSON.stringify({ role: "assistant", content: "done" }), { turn: i + 1 });
  });
  s.close();
  utimesSync(s.path, opts.updated, opts.updated);
}

describe("keel sessions", () => {
  it("says there are none yet (exit 0) in an empty store", async () => {
    const r = await keel(["sessions", "--cwd", projectA]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^No sessions yet for .*alpha\. Start one with `keel`/);
    const all = await keel(["sessions", "--all"]);
    expect(all.stdout).toMatch(/^No sessions yet\./);
    const json = await keel(["sessions", "--json", "--cwd", projectA]);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it("lists this project's sessions newest first with counts and the first prompt", async () => {
    session({
      project: projectA,
      id: "aaaa1111-old",
      prompts: ["fix the flaky test"],
      updated: new Date(Date.now() - 3 * 3600_000),
    });
    session({
      project: projectA,
      id: "bbbb2222-new",
      prompts: ["add a --json flag\nto stats", "thanks"],
      updated: new Date(),
    });
    session({
      project: projectB,
      id: "cccc3333-other",
      prompts: ["other project"],
      updated: new Date(),
    });

    const r = await keel(["sessions", "--cwd", projectA]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^2 sessions \(.*alpha\), newest first:$/);
    expect(lines[1]).toMatch(/^ID\s+STARTED\s+UPDATED\s+MSGS\s+FIRST PROMPT$/);
    expect(lines[2]).toMatch(
      /^bbbb2222\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+just now\s+4\s+add a --json flag to stats$/,
    );
    expect(lines[3]).toMatch(/^aaaa1111\s+.*\s+3 h ago\s+2\s+fix the flaky test$/);
    expect(r.stdout).not.toContain("other project");
    expect(r.stdout).toContain("Resume one with: keel --resume <ID>");
    expect(r.stdout).toContain('keel run --resume <ID> "<prompt>"');
  });

  it("leaves out sessions without a prompt (nothing to resume), saying so", async () => {
    session({ project: projectA, id: "aaaa1111", prompts: ["real work"], updated: new Date(0) });
    session({ project: projectA, id: "eeee0000", prompts: [], updated: new Date() });
    const r = await keel(["sessions", "--cwd", projectA]);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^1 session \(.*alpha\), newest first:$/);
    expect(lines[2]).toMatch(/^aaaa1111 .*real work$/);
    expect(r.stdout).not.toContain("eeee0000");
    expect(r.stdout).toContain("(1 session without a prompt not shown; --json lists them)");
    const json = JSON.parse((await keel(["sessions", "--json", "--cwd", projectA])).stdout);
    expect(json.map((s: { id: string }) => s.id)).toEqual(["eeee0000", "aaaa1111"]);
  });

  it("only empty sessions: none yet, and how many were left out", async () => {
    session({ project: projectA, id: "eeee0000", prompts: [], updated: new Date() });
    const r = await keel(["sessions", "--cwd", projectA]);
    expect(r.stdout).toMatch(/^No sessions yet for .*alpha\./);
    expect(r.stdout).toContain("(1 session without a prompt not shown");
  });

  it("--all lists every project with a project column", async () => {
    session({
      project: projectA,
      id: "aaaa1111",
      prompts: ["one"],
      updated: new Date(Date.now() - 60_000 * 5),
    });
    session({ project: projectB, id: "cccc3333", prompts: ["two"], updated: new Date() });
    const r = await keel(["sessions", "--all", "--cwd", projectA]);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("2 sessions (all projects), newest first:");
    expect(lines[1]).toMatch(/PROJECT\s+FIRST PROMPT$/);
    expect(lines[2]).toMatch(/^cccc3333 .*\s\/\S+\/beta\s+two$/);
    expect(lines[3]).toMatch(/^aaaa1111 .*5 min ago\s+2\s+\.\s+one$/);
  });

  it("--json prints every field, newest first", async () => {
    session({
      project: projectA,
      id: "s-old",
      prompts: ["first"],
      updated: new Date(Date.now() - 86_400_000 * 2),
    });
    session({ project: projectA, id: "s-new", prompts: [], updated: new Date() });
    const r = await keel(["sessions", "--json", "--cwd", projectA]);
    const list = JSON.parse(r.stdout);
    expect(list.map((s: { id: string }) => s.id)).toEqual(["s-new", "s-old"]);
    expect(list[1]).toMatchObject({
      id: "s-old",
      projectDir: projectA,
      model: "deepseek-v4-flash",
      messages: 2,
      firstPrompt: "first",
    });
    expect(Object.keys(list[1]).sort()).toEqual(
      [
        "answered",
        "createdAt",
        "firstPrompt",
        "id",
        "messages",
        "model",
        "path",
        "projectDir",
        "updatedAt",
      ].sort(),
    );
    expect(list[0].firstPrompt).toBe("");
  });

  it("a bad --cwd is a one-line user error", async () => {
    const r = await keel(["sessions", "--cwd", join(root, "missing")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^keel: --cwd: not a directory: .*missing\n$/);
  });
});

describe("sessions formatting", () => {
  it("short ids are 8 characters unless that is ambiguous", () => {
    expect(shortIds(["0123456789ab", "fedcba987654"])).toEqual(["01234567", "fedcba98"]);
    expect(shortIds(["01234567aa", "01234567ab", "99"])).toEqual([
      "01234567aa",
      "01234567ab",
      "99",
    ]);
  });

  it("relative times", () => {
    const now = Date.parse("2026-05-10T12:00:00Z");
    const ago = (ms: number) => new Date(now - ms).toISOString();
    expect(relativeTime(ago(10_000), now)).toBe("just now");
    expect(relativeTime(ago(5 * 60_000), now)).toBe("5 min ago");
    expect(relativeTime(ago(3 * 3600_000), now)).toBe("3 h ago");
    expect(relativeTime(ago(86_400_000), now)).toBe("1 day ago");
    expect(relativeTime(ago(3 * 86_400_000), now)).toBe("3 days ago");
    expect(relativeTime(ago(30 * 86_400_000), now)).toBe(formatLocalTime(ago(30 * 86_400_000)));
    expect(relativeTime("garbage", now)).toBe("garbage");
  });

  it("cuts a long first prompt to fit 80 columns", () => {
    const lines = renderSessions(
      [
        {
          id: "abcdef0123",
          projectDir: "/p",
          path: "/p/x.jsonl",
          model: "m",
          createdAt: "2026-05-10T12:00:00Z",
          updatedAt: "2026-05-10T12:00:00Z",
          messages: 12,
          answered: true,
          firstPrompt: "x".repeat(80),
        },
      ],
      { all: false, projectDir: "/p", now: Date.parse("2026-05-10T12:00:30Z") },
    );
    expect(lines[2]?.length).toBeLessThanOrEqual(80);
    expect(lines[2]).toMatch(/x…$/);
  });

  it("shows a hook-given title instead of the first prompt", () => {
    const base = {
      projectDir: "/p",
      path: "/p/x.jsonl",
      model: "m",
      createdAt: "2026-05-10T12:00:00Z",
      updatedAt: "2026-05-10T12:00:00Z",
      messages: 2,
      answered: true,
    };
    const lines = renderSessions(
      [
        { ...base, id: "aaaa0001", firstPrompt: "fix it", title: "Parser fix" },
        { ...base, id: "bbbb0002", firstPrompt: "untitled one" },
      ],
      { all: false, projectDir: "/p", now: Date.parse("2026-05-10T12:00:30Z") },
    );
    expect(lines[1]).toMatch(/TITLE \/ FIRST PROMPT$/);
    expect(lines[2]).toMatch(/Parser fix$/);
    expect(lines[3]).toMatch(/untitled one$/);
  });
});
