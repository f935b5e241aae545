/**
 * Images through `keel run` (in-process main()) against the simulator: `--image` and `@shot.png`
 * reach a vision model as `image_url` parts, read_file on an image attaches it in a user message
 * after the tool results, --continue replays the same bytes; a model without vision, a file that
 * is not an image, one over the cap and a Read deny rule each stop the run with nothing sent.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES } from "../../src/base/index.js";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const PNG_URL = `data:image/png;base64,${PNG.toString("base64")}`;
const VISION = ["--model", "keel-sim-vision"];

function shot(world: World, name = "shot.png", bytes: Buffer = PNG): void {
  writeFileSync(join(world.project, name), bytes);
}

/** The images of the last user message of request `i`, as the simulator parsed them. */
function lastUserImages(world: World, i = 0): string[] {
  const users = (world.sim.requests[i]?.messages ?? []).filter((m) => m.role === "user");
  return users.at(-1)?.images ?? [];
}

describe("keel run: images", () => {
  it("--image sends the file as an image_url part to a vision model", async () => {
    const world = await newWorld(script(reply().text("a red dot")));
    shot(world);
    const r = await keel(world, ["run", "what is this?", "--image", "shot.png", ...VISION]);
    expect(r.code, r.stderr).toBe(0);
    expect(lastUserImages(world)).toEqual([PNG_URL]);
    expect(world.sim.requests[0]?.rawBody).toContain(
      `{"type":"image_url","image_url":{"url":"${PNG_URL}"}}`,
    );
  });

  it("@shot.png in the prompt attaches the image; --continue replays the same bytes", async () => {
    const world = await newWorld(script(reply().text("a dot"), reply().text("still a dot")));
    shot(world);
    const first = await keel(world, ["run", "look at @shot.png please", ...VISION]);
    expect(first.code, first.stderr).toBe(0);
    expect(lastUserImages(world)).toEqual([PNG_URL]);
    const second = await keel(world, ["run", "and now?", "--continue", ...VISION]);
    expect(second.code, second.stderr).toBe(0);
    const before = world.sim.requests[0]?.messageTexts ?? [];
    const after = world.sim.requests[1]?.messageTexts ?? [];
    expect(after.slice(0, before.length)).toEqual(before);
    expect(before.join("")).toContain(PNG_URL);
  });

  it("read_file on an image: the result says so, the image follows in a user message", async () => {
    const world = await newWorld(
      script(reply().tool("read_file", { path: "shot.png" }), reply().text("a dot")),
    );
    shot(world);
    const r = await keel(world, ["run", "read the screenshot", "--yes", ...VISION]);
    expect(r.code, r.stderr).toBe(0);
    const msgs = world.sim.requests[1]?.messages ?? [];
    const tool = msgs.find((m) => m.role === "tool");
    expect(tool?.content).toContain("shot.png is an image (image/png");
    expect(msgs.at(-1)?.role).toBe("user");
    expect(msgs.at(-1)?.images).toEqual([PNG_URL]);
  });

  it("read_file on an image for a model without vision: told so, no image sent", async () => {
    const world = await newWorld(
      script(reply().tool("read_file", { path: "shot.png" }), reply().text("ok")),
    );
    shot(world);
    const r = await keel(world, ["run", "read the screenshot", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const msgs = world.sim.requests[1]?.messages ?? [];
    expect(msgs.find((m) => m.role === "tool")?.content).toContain(
      "the model deepseek-v4-flash does not take images",
    );
    expect(world.sim.requests[1]?.rawBody).not.toContain("image_url");
  });

  it("read_file's description says it reads images to a vision model only, the same bytes each session", async () => {
    const world = await newWorld(
      script(reply().text("one"), reply().text("two"), reply().text("three")),
    );
    for (const extra of [VISION, VISION, []]) {
      const r = await keel(world, ["run", "hi", ...extra]);
      expect(r.code, r.stderr).toBe(0);
    }
    const tools = (i: number) => world.sim.requests[i]?.toolsText ?? "";
    expect(tools(0)).toContain("Images (PNG, JPEG, GIF, WebP; up to 5 MB) are the exception");
    // Fixed at session start from the model: two sessions send the same prefix bytes.
    expect(tools(1)).toBe(tools(0));
    expect(tools(2)).not.toContain("Images (PNG");
  });

  it("a model without vision: the run fails naming the model and data/models.json, nothing sent", async () => {
    const world = await newWorld(script(reply().text("never")));
    shot(world);
    const r = await keel(world, ["run", "what is this?", "--image", "shot.png"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("deepseek-v4-flash");
    expect(r.stderr).toContain("data/models.json");
    expect(world.sim.requests).toHaveLength(0);
  });

  it("a file that is not an image (by its bytes) is refused, nothing sent", async () => {
    const world = await newWorld(script(reply().text("never")));
    shot(world, "fake.png", Buffer.from("not an image at all\n"));
    const r = await keel(world, ["run", "look at @fake.png", ...VISION]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("fake.png is not a PNG, JPEG, GIF or WebP image");
    expect(world.sim.requests).toHaveLength(0);
  });

  it("an image over the size cap is refused, nothing sent", async () => {
    const world = await newWorld(script(reply().text("never")));
    const big = Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES)]);
    shot(world, "big.png", big);
    const r = await keel(world, ["run", "x", "--image", "big.png", ...VISION]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`more than the ${IMAGE_MAX_BYTES}-byte limit`);
    expect(world.sim.requests).toHaveLength(0);
  });

  it("a Read deny rule bars an image path as it bars read_file", async () => {
    const world = await newWorld(script(reply().text("never")));
    shot(world, "secret.png");
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({ permissions: { deny: ["Read(./secret.png)"] } }),
    );
    for (const args of [
      ["run", "look at @secret.png", ...VISION],
      ["run", "x", "--image", "secret.png", ...VISION],
    ]) {
      const r = await keel(world, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Read(./secret.png)");
    }
    expect(world.sim.requests).toHaveLength(0);
  });

  it("an image the user names outside the project (a screenshot on ~/Desktop) is sent", async () => {
    const world = await newWorld(script(reply().text("a dot"), reply().text("same dot")));
    // HOME is the world's root, outside the project.
    mkdirSync(join(world.root, "Desktop"));
    const outside = join(world.root, "Desktop", "Screen Shot.png");
    writeFileSync(outside, PNG);
    const byFlag = await keel(world, ["run", "x", "--image", outside, ...VISION]);
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(lastUserImages(world, 0)).toEqual([PNG_URL]);
    const byMention = await keel(world, ["run", 'see @"~/Desktop/Screen Shot.png"', ...VISION]);
    expect(byMention.code, byMention.stderr).toBe(0);
    expect(lastUserImages(world, 1)).toEqual([PNG_URL]);
  });

  it("outside the project, KEEL_HOME and Read deny rules still bar an image", async () => {
    const world = await newWorld(script(reply().text("never")));
    // KEEL_HOME holds config.json (the provider key): nothing in it is sent, image or not.
    writeFileSync(join(world.home, "shot.png"), PNG);
    const home = await keel(world, [
      "run",
      "x",
      "--image",
      join(world.home, "shot.png"),
      ...VISION,
    ]);
    expect(home.code).toBe(1);
    expect(home.stderr).toContain("Keel's home (KEEL_HOME)");
    mkdirSync(join(world.root, "private"));
    writeFileSync(join(world.root, "private", "scan.png"), PNG);
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({ permissions: { deny: ["Read(~/private/**)"] } }),
    );
    for (const args of [
      ["run", "look at @~/private/scan.png", ...VISION],
      ["run", "x", "--image", join(world.root, "private", "scan.png"), ...VISION],
    ]) {
      const r = await keel(world, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("Read(~/private/**)");
    }
    expect(world.sim.requests).toHaveLength(0);
  });

  it("the model's read_file of an image outside the project stays refused", async () => {
    const world = await newWorld(
      script(reply().tool("read_file", { path: "../outside.png" }), reply().text("ok")),
    );
    writeFileSync(join(world.root, "outside.png"), PNG);
    const r = await keel(world, ["run", "read it", "--yes", ...VISION]);
    expect(r.code, r.stderr).toBe(0);
    const tool = world.sim.requests[1]?.messages.find((m) => m.role === "tool");
    expect(tool?.content).toContain("outside the project directory");
    expect(world.sim.requests[1]?.rawBody).not.toContain("image_url");
  });
});
