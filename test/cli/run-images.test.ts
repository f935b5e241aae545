/**
 * Images through `keel run` (in-process main()) against the simulator: `--image` and `@shot.png`
 * reach a vision model as `image_url` parts, read_file on an image attaches it in a user message
 * after the tool results, --continue replays the same bytes; a model without vision, a file that
 * is not an image, one over the cap and a Read deny rule each stop the run with nothing sent.
 */
import { writeFileSync } from "node:fs";
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

  it("an image outside the project is refused like read_file's", async () => {
    const world = await newWorld(script(reply().text("never")));
    writeFileSync(join(world.root, "outside.png"), PNG);
    const r = await keel(world, [
      "run",
      "x",
      "--image",
      join(world.root, "outside.png"),
      ...VISION,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("outside the project directory");
    expect(world.sim.requests).toHaveLength(0);
  });
});
