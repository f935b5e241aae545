import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../src/base/index.js";

const node = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

describe("sha256Hex", () => {
  it("gives node:crypto's answers through noble while little has been hashed", async () => {
    // A fresh module: its budget is per process.
    vi.resetModules();
    const fresh = await import("../../src/base/sha256.js");
    for (const t of ["", "abc", "é ✓ 𝄞 \u0000", "y".repeat(fresh.NOBLE_BUDGET - 20)]) {
      expect(fresh.sha256Hex(t)).toBe(node(t));
    }
  });

  it("gives node:crypto's answers (stored trust hashes and hook ids stay valid)", () => {
    const texts = ["", "abc", "é ✓ 𝄞 \u0000", "x".repeat(100_000), '{"a":[1,2]}'];
    for (const t of texts) expect(sha256Hex(t)).toBe(node(t));
    for (const n of [0, 1, 55, 56, 63, 64, 65, 4096, 70_001]) {
      const bytes = randomBytes(n);
      expect(sha256Hex(bytes)).toBe(node(bytes));
    }
  });
});
