/**
 * The simulator's public surface: start a server, build or load a script.
 */
export { ReplyBuilder, type ReplyInput, reply, ScriptBuilder, script } from "./builder.js";
export { CACHE_UNIT } from "./prefix-cache.js";
export type { SimRequestRecord } from "./record.js";
export {
  loadScriptFile,
  type ParseScriptResult,
  parseScript,
  type ScriptFault,
  type ScriptFile,
  type ScriptReply,
  type ScriptToolCall,
} from "./script.js";
export {
  EXHAUSTED_TEXT,
  type ScriptInput,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from "./server.js";
