/**
 * Keel's public library API.
 */

export type * from "./agent/events.js";
export * from "./hooks/events.js";
export type * from "./hooks/types.js";
export type * from "./llm/types.js";
export type * from "./tools/types.js";
export { VERSION } from "./version.js";
