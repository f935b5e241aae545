/**
 * Effort levels as each model takes them (data/models.json's `effort`), and where they go in
 * the request body: after the messages, so a changed level keeps the cached prefix.
 */

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLlmConfig } from "../../src/llm/config.js";
import { modelEffort, resolveEffort } from "../../src/llm/effort.js";
import { buildRequestBody } from "../../src/llm/request-body.js";

describe("resolveEffort", () => {
  it("DeepSeek V4 takes high and max from data/models.json, and none turns thinking off", () => {
    expect(modelEffort("deepseek-v4-flash")).toEqual({
      reasoningEffort: ["high", "max"],
      thinking: true,
    });
    expect(resolveEffort("deepseek-v4-pro", "max")).toEqual({
      ok: true,
      level: "max",
      request: { thinking: "enabled", reasoningEffort: "max" },
    });
    expect(resolveEffort("deepseek-v4-flash", "none")).toEqual({
      ok: true,
      level: "none",
      request: { thinking: "disabled" },
    });
  });

  it("a level the model lacks becomes the next one up, and says so", () => {
    const low = resolveEffort("deepseek-v4-flash", "low");
    expect(low).toMatchObject({ ok: true, level: "high", request: { reasoningEffort: "high" } });
    expect(low.ok && low.note).toMatch(/effort low: deepseek-v4-flash takes high, max.*using high/);
    expect(resolveEffort("deepseek-v4-flash", "xhigh")).toMatchObject({ level: "max" });
  });

  it("a model without an effort entry takes none: an error naming the model and the file", () => {
    expect(resolveEffort("deepseek-chat", "high")).toEqual({
      ok: false,
      error:
        'model deepseek-chat takes no effort level (data/models.json declares no "effort" for it)',
    });
    expect(resolveEffort("some-endpoint-model", "high").ok).toBe(false);
  });

  it("an endpoint that declares reasoning_effort values gets them, and none only if declared", () => {
    const declared = { reasoningEffort: ["minimal", "low", "medium", "high"] as const };
    expect(
      resolveEffort("m", "medium", { reasoningEffort: [...declared.reasoningEffort] }),
    ).toEqual({ ok: true, level: "medium", request: { reasoningEffort: "medium" } });
    expect(
      resolveEffort("m", "max", { reasoningEffort: [...declared.reasoningEffort] }),
    ).toMatchObject({ ok: true, level: "high" });
    expect(resolveEffort("m", "none", { reasoningEffort: ["low"] })).toMatchObject({ ok: false });
  });
});

describe("the effort in the request body", () => {
  const request = (extra: object) => ({
    model: "deepseek-v4-flash",
    messages: ['{"role":"system","content":"s"}', '{"role":"user","content":"u"}'],
    tools: "[]",
    ...extra,
  });

  it("reasoning_effort and thinking follow the messages: the prefix bytes do not change", () => {
    const plain = buildRequestBody(request({}), { stream: true });
    const max = buildRequestBody(request({ thinking: "enabled", reasoningEffort: "max" }), {
      stream: true,
    });
    expect(max).toContain(`"thinking":{"type":"enabled"},"reasoning_effort":"max"}`);
    const prefixEnd = plain.indexOf("]") + 1;
    expect(max.slice(0, prefixEnd)).toBe(plain.slice(0, prefixEnd));
    expect(max.slice(0, max.indexOf(',"tools"'))).toBe(plain.slice(0, plain.indexOf(',"tools"')));
  });
});

describe("config.json effort", () => {
  it("is read, and a level that is not one names the file and the field", async () => {
    const home = mkdtempSync(join(tmpdir(), "keel-effort-"));
    writeFileSync(join(home, "config.json"), JSON.stringify({ effort: "max" }));
    const ok = await loadLlmConfig({ keelHome: home, env: {} });
    expect(ok.ok && ok.config.effort).toBe("max");
    writeFileSync(join(home, "config.json"), JSON.stringify({ effort: "extreme" }));
    const bad = await loadLlmConfig({ keelHome: home, env: {} });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toBe(
      `${join(home, "config.json")}: effort: expected one of none, minimal, low, medium, high, xhigh, max`,
    );
  });
});
