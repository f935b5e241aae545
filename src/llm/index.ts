/**
 * The LLM layer's surface: client, JSON-mode helper, canonical JSON, pricing, configuration.
 */
export { type ChatClientOptions, chatCompletionsUrl, createChatClient } from "./client.js";
export { type CompleteJsonResult, completeJson } from "./complete-json.js";
export {
  baseUrlOrigin,
  type ConfigSource,
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  DEFAULT_STREAM_IDLE_MS,
  type LlmConfig,
  type LlmConfigFile,
  type LlmConfigResult,
  type LoadLlmConfigOptions,
  loadLlmConfig,
  type SaveLlmConfigOptions,
  saveLlmConfig,
} from "./config.js";
export {
  EFFORT_LEVELS,
  type EffortLevel,
  type EffortRequest,
  type EffortResolution,
  isEffortLevel,
  type ModelEffort,
  modelEffort,
  resolveEffort,
} from "./effort.js";
export {
  costUsd,
  costWithoutCacheUsd,
  loadModelTable,
  type ModelPrice,
  type ModelTable,
  modelTakesImages,
  priceFor,
  referenceCostUsd,
} from "./pricing.js";
export { buildRequestBody } from "./request-body.js";
export { stableStringify } from "./stable-json.js";
export type * from "./types.js";
export { SIMULATOR_FINGERPRINT } from "./types.js";
