/**
 * SHA-256 in hex, as node:crypto's createHash("sha256") gives it (the same bytes: strings as
 * UTF-8). Through @noble/hashes while little has been hashed, because loading node:crypto (its
 * streams and ciphers) cost `keel hooks list` ~4 ms of its ~40, for hashes of a few kilobytes:
 * the trust hash and hook ids. Past NOBLE_BUDGET bytes in one process, node:crypto: V8 then
 * compiles noble's block function with TurboFan on a background thread, which maps ~6 MB more
 * of Node's binary (`keel hooks list` with 32 trusted project hooks: 55 MB peak RSS instead of
 * 50 with node:crypto loaded). test/base/sha256.test.ts holds the two to the same answers.
 */
import { createHash } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const utf8 = new TextEncoder();

/** Bytes hashed through noble before node:crypto takes over (a few trust hashes' worth). */
export const NOBLE_BUDGET = 4 * 1024;
let hashedByNoble = 0;

export function sha256Hex(data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? utf8.encode(data) : data;
  if (hashedByNoble + bytes.length > NOBLE_BUDGET) {
    hashedByNoble = NOBLE_BUDGET;
    return createHash("sha256").update(bytes).digest("hex");
  }
  hashedByNoble += bytes.length;
  return bytesToHex(sha256(bytes));
}
