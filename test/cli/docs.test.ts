import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { docsDir, guideText, listGuides } from "../../src/cli/commands/docs.js";
import { keel } from "../helpers/cli.js";

const ROOT = resolve(__dirname, "../..");
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe("keel docs", () => {
  it("finds the package's guides and lists hooks first", () => {
    const dir = docsDir();
    expect(dir).toBe(join(ROOT, "docs"));
    const guides = listGuides(dir ?? "");
    expect(guides[0]?.name).toBe("hooks");
    expect(guides.map((g) => g.name)).toContain("security");
    expect(guides[0]?.title).toBe("Writing hooks for Keel");
  });

  it("renders a guide for the terminal: no Markdown markers, lines within the width", () => {
    const hooks = listGuides(join(ROOT, "docs")).find((g) => g.name === "hooks");
    if (!hooks) throw new Error("no hooks guide");
    const out = guideText(hooks, { raw: false, columns: 72 });
    expect(out).toContain("\x1b[1m");
    const text = plain(out);
    expect(text).toMatch(/^Writing hooks for Keel$/m);
    expect(text).not.toMatch(/^#{1,3} /m);
    expect(text).not.toContain("**observe**");
    for (const line of text.split("\n")) expect([...line].length).toBeLessThanOrEqual(72);
    expect(guideText(hooks, { raw: true, columns: 72 })).toBe(readFileSync(hooks.path, "utf8"));
  });

  it("prints the list, and names the guides when one does not exist", async () => {
    const list = await keel(["docs"]);
    expect(list.stdout).toMatch(/^ {2}hooks +Writing hooks for Keel$/m);
    const bad = await keel(["docs", "nope"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('no guide named "nope"; the guides are: hooks');
  });

  it("works from an installed package (bundle + docs, no src/), raw when piped", () => {
    const pkg = mkdtempSync(join(tmpdir(), "keel-docs-pkg-"));
    temps.push(pkg);
    // The bundle `npm run build` made (no test rebuilds it), copied: building another one here
    // cost ~20 s of the suite.
    for (const part of ["bin", "dist/bundle", "docs", "data", "package.json"]) {
      cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    }
    symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"));
    const r = spawnSync(process.execPath, [join(pkg, "bin/keel.js"), "docs", "hooks"], {
      cwd: tmpdir(),
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(readFileSync(join(ROOT, "docs/hooks.md"), "utf8"));
  }, 120_000);
});

describe("the shipped guides", () => {
  it("name each section once, so every link in the table of contents has one target", () => {
    for (const g of listGuides(join(ROOT, "docs"))) {
      const text = readFileSync(join(ROOT, "docs", `${g.name}.md`), "utf8").replace(
        /```[\s\S]*?```/g,
        "",
      );
      const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => `${m[1]}`);
      const repeated = headings.filter((h, i) => headings.indexOf(h) !== i);
      expect({ guide: g.name, repeated }).toEqual({ guide: g.name, repeated: [] });
    }
  });

  it("say one thing about which Reasonix version a .reasonix file is read as", async () => {
    const hooks = readFileSync(join(ROOT, "docs/hooks.md"), "utf8");
    expect(hooks).not.toMatch(/^### Reasonix 1\.x$/m);
    const { looksLikeReasonix1 } = await import("../../src/hooks/dialects/reasonix1/index.js");
    // The guide's Reasonix example is what a newcomer pastes: it must be read as the current 1.x.
    const section = hooks.slice(hooks.indexOf("### Reasonix"));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    expect(looksLikeReasonix1(JSON.parse(example).hooks)).toBe(true);
  });
});
