/**
 * CI proves the README: .ci/run must run the Set-up section's commands verbatim, and the npm
 * scripts they name must exist.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** The shell commands of the README's Set-up code block, comments removed. */
function setupCommands(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("## Set-up"),
    readme.indexOf("\n## ", readme.indexOf("## Set-up") + 1),
  );
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

describe("README set-up commands", () => {
  it("are run verbatim by .ci/run", () => {
    const commands = setupCommands();
    expect(commands.length).toBe(2);
    const ci = readFileSync(join(ROOT, ".ci/run"), "utf8")
      .split("\n")
      .map((l) => l.trim());
    for (const command of commands) expect(ci).toContain(command);
  });

  it("name npm scripts that exist", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    for (const command of setupCommands()) {
      for (const m of command.matchAll(/npm (?:run )?(\w[\w:-]*)/g)) {
        expect(pkg.scripts[m[1] ?? ""], `npm script ${m[1]}`).toBeTruthy();
      }
    }
  });
});
