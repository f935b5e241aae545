/**
 * Leaf helpers every layer may use and that use nothing in src/ (design.md §1): a layer imports
 * base/ through this file.
 */
export {
  ESCAPE_SEQUENCE,
  escapeChar,
  hasUnsafeChar,
  type SanitizeOptions,
  sanitize,
  sanitizeJson,
} from "./sanitize.js";
