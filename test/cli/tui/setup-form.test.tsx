import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkBaseUrl,
  maskKey,
  SetupForm,
  type SetupValues,
} from "../../../src/cli/tui/components/setup-form.js";
import { KEY, plain, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

function mount() {
  const done: SetupValues[] = [];
  let cancelled = 0;
  const r = render(
    <SetupForm
      defaultBaseUrl="https://api.deepseek.com"
      configPath="/home/u/.keel/config.json"
      onDone={(v) => done.push(v)}
      onCancel={() => cancelled++}
    />,
  );
  return { ...r, done, cancelled: () => cancelled };
}

describe("SetupForm", () => {
  it("asks for the key without echoing it, then the base URL", async () => {
    const m = mount();
    await waitForFrame(m.lastFrame, (s) => s.includes("API key:"));
    m.stdin.write("sk-abcdef123456");
    let s = await waitForFrame(m.lastFrame, (s) => s.includes("•••••"));
    expect(s).not.toContain("abcdef");
    m.stdin.write(KEY.enter);
    s = await waitForFrame(m.lastFrame, (s) =>
      s.includes("https://api.deepseek.com (Enter keeps it)"),
    );
    expect(s).toContain("sk-…3456");
    expect(s).not.toContain("abcdef");
    m.stdin.write(KEY.enter);
    await expect
      .poll(() => m.done)
      .toEqual([{ apiKey: "sk-abcdef123456", baseUrl: "https://api.deepseek.com" }]);
  });

  it("takes a pasted key and an edited URL, and rejects a bad URL", async () => {
    const m = mount();
    await waitForFrame(m.lastFrame, (s) => s.includes("API key:"));
    m.stdin.write("\x1b[200~sk-pasted-key-99\x1b[201~");
    await waitForFrame(m.lastFrame, (s) => s.includes("••••••••"));
    m.stdin.write(KEY.enter);
    await waitForFrame(m.lastFrame, (s) => s.includes("Base URL:"));
    m.stdin.write(KEY.ctrlU);
    m.stdin.write("not a url");
    m.stdin.write(KEY.enter);
    await waitForFrame(m.lastFrame, (s) => s.includes("not a URL"));
    expect(m.done).toEqual([]);
    m.stdin.write(KEY.ctrlU);
    m.stdin.write("http://127.0.0.1:9/v1\r");
    await expect
      .poll(() => m.done)
      .toEqual([{ apiKey: "sk-pasted-key-99", baseUrl: "http://127.0.0.1:9/v1" }]);
  });

  it("takes a key, Enter and a URL typed in one burst; the URL replaces the default", async () => {
    const m = mount();
    await waitForFrame(m.lastFrame, (s) => s.includes("API key:"));
    m.stdin.write("sk-burst-key-77\rhttp://127.0.0.1:8/v1\r");
    await expect
      .poll(() => m.done)
      .toEqual([{ apiKey: "sk-burst-key-77", baseUrl: "http://127.0.0.1:8/v1" }]);
  });

  it("leaves the URL typed in one burst with Enter on the last frame, not the default", async () => {
    const done: SetupValues[] = [];
    // As run.tsx does: the form is unmounted as soon as it hands the answers back.
    const r = render(
      <SetupForm
        defaultBaseUrl="https://api.deepseek.com"
        configPath="/home/u/.keel/config.json"
        onDone={(v) => {
          done.push(v);
          r.unmount();
        }}
        onCancel={() => {}}
      />,
    );
    await waitForFrame(r.lastFrame, (s) => s.includes("API key:"));
    r.stdin.write("sk-burst-key-77\r");
    await waitForFrame(r.lastFrame, (s) => s.includes("Enter keeps it"));
    r.stdin.write("http://127.0.0.1:8/v1\r");
    await expect.poll(() => done.length).toBe(1);
    // The last frame drawn before the form went away (unmounting clears the test's frame).
    const last = plain(r.frames.filter((f) => f.trim() !== "").at(-1));
    expect(last).toContain("Base URL: http://127.0.0.1:8/v1");
    expect(last).not.toContain("Enter keeps it");
  });

  it("requires a key and cancels on Escape", async () => {
    const m = mount();
    await waitForFrame(m.lastFrame, (s) => s.includes("API key:"));
    m.stdin.write(KEY.enter);
    await waitForFrame(m.lastFrame, (s) => s.includes("the key is required"));
    m.stdin.write(KEY.escape);
    await expect.poll(() => m.cancelled()).toBe(1);
  });

  it("masks and checks", () => {
    expect(maskKey("sk-0123456789")).toBe("sk-…6789");
    expect(maskKey("abc")).toBe("•••");
    expect(checkBaseUrl("ftp://x")).toMatch(/http/);
    expect(checkBaseUrl("https://api.deepseek.com")).toBeNull();
  });
});
