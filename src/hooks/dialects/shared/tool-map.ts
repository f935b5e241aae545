/**
 * Table-driven mapping of tool names and input fields between Keel and a dialect (design
 * §2.4). Fields not in a table pass through unchanged, so unknown and MCP tools keep their
 * own names and inputs in every dialect.
 */
import { isAbsolute, resolve } from "node:path";
import type { ToolInput } from "../../events.js";
import type { Dialect, ToolSpec, ToolTable } from "../types.js";

export type { ToolSpec, ToolTable };

/** The mapping functions a dialect gets from its table. */
export type ToolMapper = Pick<
  Dialect,
  "tools" | "absolutePaths" | "toolName" | "keelToolName" | "inputToDialect" | "inputFromDialect"
>;

/** Keel input fields that hold a path (made absolute for dialects that want absolute paths). */
const PATH_FIELDS = new Set(["path"]);

/** Builds the mapper for a table; `absolutePaths` turns Keel's `path` fields into absolute paths. */
export function createToolMapper(table: ToolTable, opts: { absolutePaths: boolean }): ToolMapper {
  const byDialectName = new Map<string, string>();
  for (const [keel, spec] of Object.entries(table)) byDialectName.set(spec.name, keel);

  return {
    tools: table,
    absolutePaths: opts.absolutePaths,
    toolName: (keelTool) => table[keelTool]?.name ?? keelTool,
    keelToolName: (name) => byDialectName.get(name),
    inputToDialect(keelTool, input, ctx) {
      const fields = table[keelTool]?.fields ?? {};
      const out: ToolInput = {};
      for (const [key, value] of Object.entries(input)) {
        const mapped =
          opts.absolutePaths && PATH_FIELDS.has(key) && typeof value === "string" && value !== ""
            ? resolve(ctx.projectDir, value)
            : value;
        out[fields[key] ?? key] = mapped;
      }
      return out;
    },
    inputFromDialect(keelTool, input, original, ctx) {
      const fields = table[keelTool]?.fields ?? {};
      const back = new Map<string, string>();
      for (const [keel, dialect] of Object.entries(fields)) back.set(dialect, keel);
      const out: ToolInput = {};
      for (const [key, value] of Object.entries(input)) {
        const keelKey = back.get(key) ?? key;
        out[keelKey] = value;
        if (opts.absolutePaths && PATH_FIELDS.has(keelKey) && typeof value === "string") {
          const before = original[keelKey];
          // An untouched path goes back exactly as the model wrote it (relative stays relative).
          if (typeof before === "string" && resolve(ctx.projectDir, before) === value) {
            out[keelKey] = before;
          } else if (!isAbsolute(value)) {
            out[keelKey] = value;
          }
        }
      }
      return out;
    },
  };
}
