/**
 * `keel hooks test --tool NAME`: any dialect's tool name (Bash, run_shell_command, bash …) is
 * mapped to Keel's tool, and the input written in that dialect's fields is mapped back too;
 * an unknown tool or input field is a warning, so a typo is not a silently passing test.
 */
import { DIALECT_LIST, keelToolNameFromAny } from "../../../hooks/index.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../../tools/hook-facts.js";

/** The Keel tool and input to test, and notes for stderr. */
export interface MappedTool {
  tool: string;
  /** The input as JSON text in Keel's fields (undefined when none was given). */
  input: string | undefined;
  notes: string[];
}

/** Maps `--tool` / `--input` to Keel's names and fields. */
export function mapTestTool(tool: string, input: string | undefined): MappedTool {
  const keel = keelToolNameFromAny(tool);
  const notes: string[] = [];
  const facts = BUILTIN_TOOL_HOOK_FACTS.find((f) => f.name === keel);
  let mapped = input;
  if (keel !== tool) {
    const owners = DIALECT_LIST.filter((d) => d.name !== "keel" && d.keelToolName(tool) === keel);
    notes.push(
      `note: ${tool} (${owners.map((d) => d.label).join(", ")}) is Keel's ${keel}; testing ${keel} — each hook sees its own dialect's name`,
    );
    const owner = owners[0];
    if (input !== undefined && owner) {
      try {
        const value: unknown = JSON.parse(input);
        if (typeof value === "object" && value !== null && !Array.isArray(value)) {
          const back = owner.inputFromDialect(
            keel,
            value as Record<string, unknown>,
            {},
            {
              projectDir: process.cwd(),
            },
          );
          mapped = JSON.stringify(back);
        }
      } catch {
        // Left as given: buildTestPayload reports invalid JSON.
      }
    }
  }
  if (!facts && !keel.startsWith("mcp__")) {
    notes.push(
      `warning: unknown tool "${tool}"; Keel's tools are ${BUILTIN_TOOL_HOOK_FACTS.map((f) => f.name).join(", ")} (or any dialect's name for them)`,
    );
  }
  if (facts && mapped !== undefined) {
    try {
      const value: unknown = JSON.parse(mapped);
      if (typeof value === "object" && value !== null) {
        for (const key of Object.keys(value)) {
          if (!facts.inputFields.includes(key)) {
            notes.push(
              `warning: ${keel} has no input field "${key}"; its fields are ${facts.inputFields.join(", ")}`,
            );
          }
        }
      }
    } catch {
      // Reported by buildTestPayload.
    }
  }
  return { tool: keel, input: mapped, notes };
}
