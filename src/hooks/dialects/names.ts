/**
 * The names of the dialects Keel reads, in the order their files are read (Keel's first: its
 * settings govern the rest) and their tool names are looked up. A leaf: hooks/types.ts takes
 * `DialectName` from here, not from the registry (dialects/index.ts), whose dialects import
 * hooks/types.ts (test/agent/no-circles.test.ts). The registry must give every name here its
 * dialect and no other (a type error otherwise), so the two cannot drift apart.
 */
export const DIALECT_NAMES = [
  "keel",
  "claude",
  "reasonix",
  "tutorial",
  "cagent",
  "reasonix1",
  "gemini",
  "qwen",
  "codex",
  "antigravity",
  "plugin",
] as const;

/** The name of a dialect Keel reads. */
export type DialectName = (typeof DIALECT_NAMES)[number];
