/**
 * `keel docs [guide] [--raw]`: the guides shipped in the package's docs/ (hooks, security, MCP…),
 * for someone who installed Keel from npm and has no checkout where `docs/hooks.md` means
 * anything. Rendered for the terminal, or the Markdown itself when piped or with --raw.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { table } from "../format/text.js";
import { writeStdout, writeStyledStdout } from "../stdout.js";
import { renderMarkdown } from "../tui/markdown.js";
import { UserError } from "../user-error.js";

/** One guide: its name (the file name without .md) and its title (the first heading). */
export interface Guide {
  name: string;
  title: string;
  path: string;
}

/**
 * The package's docs/ folder: found by walking up from this module, which sits in src/cli/commands
 * in a checkout and in dist/bundle in an install.
 */
export function docsDir(from: string = dirname(fileURLToPath(import.meta.url))): string | null {
  let dir = from;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "docs", "hooks.md")) && existsSync(join(dir, "package.json"))) {
      return join(dir, "docs");
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** The guides in `dir`, hooks first (the one people come for), then by name. */
export function listGuides(dir: string): Guide[] {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => f.slice(0, -3));
  return names
    .sort((a, b) => (a === "hooks" ? -1 : b === "hooks" ? 1 : a.localeCompare(b)))
    .map((name) => {
      const path = join(dir, `${name}.md`);
      const heading = /^#\s+(.+)$/m.exec(readFileSync(path, "utf8"))?.[1]?.trim();
      return { name, title: heading ?? name, path };
    });
}

/** What `keel docs` prints: the guides and how to open one. */
export function guideListing(guides: readonly Guide[]): string {
  const rows = guides.map((g) => [g.name, g.title]);
  return [
    "Guides shipped with Keel:",
    ...table(rows, { indent: "  " }),
    "",
    "Open one with `keel docs <name>` (add --raw for the Markdown).",
  ].join("\n");
}

/** The text of one guide: rendered for a terminal `columns` wide, or raw Markdown. */
export function guideText(guide: Guide, opts: { raw: boolean; columns: number }): string {
  const text = readFileSync(guide.path, "utf8");
  if (opts.raw) return text.endsWith("\n") ? text : `${text}\n`;
  return `${renderMarkdown(text, Math.min(opts.columns, 100))}\n`;
}

/** Registers `keel docs`. */
export function register(program: Command): void {
  program
    .command("docs")
    .description("Show the guides shipped with Keel (hooks, security, MCP…) in the terminal")
    .argument("[guide]", "the guide to show, e.g. hooks")
    .option("--raw", "print the Markdown source (the default when output is piped)")
    .action((name: string | undefined, opts: { raw?: boolean }) => {
      const dir = docsDir();
      if (!dir)
        throw new UserError("the guides are not installed with this copy of Keel (no docs/)");
      const guides = listGuides(dir);
      if (name === undefined) {
        writeStdout(`${guideListing(guides)}\n`);
        return;
      }
      const guide = guides.find((g) => g.name === name.toLowerCase().replace(/\.md$/, ""));
      if (!guide) {
        throw new UserError(
          `no guide named "${name}"; the guides are: ${guides.map((g) => g.name).join(", ")}`,
        );
      }
      const raw = opts.raw === true || !process.stdout.isTTY;
      const text = guideText(guide, { raw, columns: process.stdout.columns ?? 80 });
      // Raw Markdown goes through the sanitizing sink; a rendered guide carries Keel's own
      // colours, styled from text renderMarkdown sanitized first (src/cli/tui/markdown.ts).
      if (raw) writeStdout(text);
      else writeStyledStdout(text);
    });
}
