/** Every corpus case, all dialects. */
import type { CorpusCase } from "../harness.js";
import { CAGENT } from "./cagent.js";
import { CLAUDE } from "./claude.js";
import { CODEX } from "./codex.js";
import { GEMINI } from "./gemini.js";
import { PLUGIN } from "./plugin.js";
import { QWEN } from "./qwen.js";
import { REASONIX } from "./reasonix.js";
import { REASONIX1 } from "./reasonix1.js";
import { TUTORIAL } from "./tutorial.js";

export const CASES: CorpusCase[] = [
  ...CLAUDE,
  ...PLUGIN,
  ...REASONIX,
  ...REASONIX1,
  ...CAGENT,
  ...TUTORIAL,
  ...GEMINI,
  ...QWEN,
  ...CODEX,
];
