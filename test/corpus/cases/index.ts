/** Every corpus case, all dialects. */
import type { CorpusCase } from "../harness.js";
import { CLAUDE } from "./claude.js";

export const CASES: CorpusCase[] = [...CLAUDE];
