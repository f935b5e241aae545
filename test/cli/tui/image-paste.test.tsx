/**
 * Images in the TUI: a pasted (dropped) image file's path becomes an `@path` mention in the
 * prompt, and the session backend sends that mention's image to a vision model as an
 * `image_url` part — to a model without vision, nothing.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, render } from "ink-testing-library";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { PromptInput } from "../../../src/cli/tui/components/prompt-input.js";
import { type EditorState, emptyEditor } from "../../../src/cli/tui/editor.js";
import { pastedImageMention } from "../../../src/cli/tui/image-paste.js";
import { reply, script } from "../../../src/sim/index.js";
import { collect, worldPerTest } from "../../agent/harness.js";
import { KEY, waitForFrame } from "./helpers.js";
import { backendFor } from "./session-world.js";

afterEach(() => cleanup());
const start = worldPerTest();

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

function Harness(props: { onSubmit: (t: string) => void }) {
  const [editor, setEditor] = useState<EditorState>(emptyEditor([]));
  return <PromptInput width={100} editor={editor} onChange={setEditor} onSubmit={props.onSubmit} />;
}

describe("a pasted image path", () => {
  it("becomes an @path mention in the prompt (quoted when it has spaces)", async () => {
    const submitted: string[] = [];
    const r = render(<Harness onSubmit={(t) => submitted.push(t)} />);
    r.stdin.write("what is in ");
    r.stdin.write("\x1b[200~'/tmp/shots/Screen Shot 1.png'\x1b[201~");
    await waitForFrame(r.lastFrame, (s) => s.includes('@"/tmp/shots/Screen Shot 1.png"'));
    r.stdin.write(KEY.enter);
    await expect.poll(() => submitted).toEqual(['what is in @"/tmp/shots/Screen Shot 1.png" ']);
  });

  it("recognizes escaped spaces and file:// URLs, and leaves other pastes alone", () => {
    expect(pastedImageMention("/a/b\\ c.JPG")).toBe('@"/a/b c.JPG" ');
    expect(pastedImageMention("file:///a/my%20shot.webp")).toBe('@"/a/my shot.webp" ');
    expect(pastedImageMention("/a/shot.gif\n")).toBe("@/a/shot.gif ");
    expect(pastedImageMention("/etc/hosts")).toBeNull();
    expect(pastedImageMention("shot.png and more")).toBeNull();
    expect(pastedImageMention("line one\n/a/shot.png")).toBeNull();
  });
});

describe("the session backend with an @image mention", () => {
  it("sends the image to a vision model as an image_url part", async () => {
    const w = await start(script(reply().text("a dot"), reply().text("never")));
    writeFileSync(join(w.project, "Screen Shot 1.png"), PNG);
    const mention = pastedImageMention(join(w.project, "Screen Shot 1.png"));
    const { backend, close } = await backendFor(w);
    // The simulator's vision model is no choice for /model.
    expect(backend.models()).not.toContain("keel-sim-vision");
    try {
      // deepseek-v4-flash takes no images: refused, nothing sent.
      const refused = await collect(backend.agent().runTurn(`look ${mention}`));
      const notice = refused.find((e) => e.type === "notice");
      expect(notice && "text" in notice ? notice.text : "").toContain(
        'the model deepseek-v4-flash does not take images (it has no "vision": true in data/models.json)',
      );
      expect(w.sim.requests).toHaveLength(0);
      await collect(backend.agent().end("exit"));
      expect(await backend.replace({ model: "keel-sim-vision" })).toEqual({ ok: true });
      await collect(backend.agent().runTurn(`look ${mention}`));
      await collect(backend.agent().end("exit"));
    } finally {
      close();
    }
    expect(w.sim.requests).toHaveLength(1);
    const user = w.sim.requests[0]?.messages.filter((m) => m.role === "user").at(-1);
    expect(user?.images).toEqual([`data:image/png;base64,${PNG.toString("base64")}`]);
  });

  it("sends a screenshot pasted from outside the project (the user named it)", async () => {
    const w = await start(script(reply().text("a dot")));
    mkdirSync(join(w.root, "Desktop"));
    const shot = join(w.root, "Desktop", "Screen Shot 2.png");
    writeFileSync(shot, PNG);
    const { backend, close } = await backendFor(w);
    try {
      expect(await backend.replace({ model: "keel-sim-vision" })).toEqual({ ok: true });
      const events = await collect(backend.agent().runTurn(`what is ${pastedImageMention(shot)}`));
      expect(events.filter((e) => e.type === "notice" && e.level === "error")).toEqual([]);
      await collect(backend.agent().end("exit"));
    } finally {
      close();
    }
    const user = w.sim.requests[0]?.messages.filter((m) => m.role === "user").at(-1);
    expect(user?.images).toEqual([`data:image/png;base64,${PNG.toString("base64")}`]);
  });
});
