/**
 * config.json as the commands read it: `llm/config.ts` (which may import nothing else in
 * src/) reports that the file is not JSON; here that is said in one line with its place.
 */
import { type LlmConfigResult, type LoadLlmConfigOptions, loadLlmConfig } from "../llm/config.js";

export {
  baseUrlOrigin,
  EFFORT_LEVELS,
  type EffortLevel,
  isEffortLevel,
} from "../llm/config.js";

/** Reads config.json and the environment (see loadLlmConfig). Never throws. */
export async function loadConfig(options: LoadLlmConfigOptions): Promise<LlmConfigResult> {
  const loaded = await loadLlmConfig(options);
  if (loaded.ok || !loaded.invalidJson) return loaded;
  // Only a broken file pays for the scanner.
  const { jsonProblem } = await import("./json-problem.js");
  const said = await jsonProblem(loaded.path);
  return said ? { ...loaded, error: said } : loaded;
}
