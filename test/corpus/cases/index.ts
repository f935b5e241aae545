/** Every corpus case, all dialects. */
import type { CorpusCase } from "../harness.js";
import { CAGENT } from "./cagent.js";
import { CLAUDE } from "./claude.js";
import { REASONIX } from "./reasonix.js";
import { TUTORIAL } from "./tutorial.js";

export const CASES: CorpusCase[] = [...CLAUDE, ...REASONIX, ...CAGENT, ...TUTORIAL];
