/**
 * SHA-256 in hex, as node:crypto's createHash("sha256") gives it (the same bytes: strings as
 * UTF-8). Through @noble/hashes because loading node:crypto (its streams and ciphers) cost
 * `keel hooks list` ~4 ms of its ~40, for hashes of a few kilobytes: the trust hash and hook
 * ids. test/base/sha256.test.ts holds the two to the same answers.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const utf8 = new TextEncoder();

export function sha256Hex(data: string | Uint8Array): string {
  return bytesToHex(sha256(typeof data === "string" ? utf8.encode(data) : data));
}
