/** The pure parts of `keel acp`: tool kinds and titles, proposed edits and diffs, stop reasons,
 *  prompt blocks as text, and the editor's MCP servers in `.mcp.json`'s shape. */
import { describe, expect, it } from "vitest";
import { editorMcpJson } from "../../../src/cli/acp/mcp.js";
import { promptOf } from "../../../src/cli/acp/prompt.js";
import {
  diffContent,
  proposedText,
  stopReasonOf,
  textContent,
  toolKind,
  toolTitle,
} from "../../../src/cli/acp/updates.js";
import { parseMcpObject } from "../../../src/mcp/index.js";

describe("acp updates", () => {
  it("kinds and titles", () => {
    expect(toolKind("shell")).toBe("execute");
    expect(toolKind("edit_file")).toBe("edit");
    expect(toolKind("mcp__x__y")).toBe("other");
    expect(toolTitle("shell", { command: "ls -la\necho hi" })).toBe("shell: ls -la");
    expect(toolTitle("glob", { pattern: "**/*.ts" })).toBe("glob: **/*.ts");
  });

  it("an edit's proposed text, and none when it cannot apply", () => {
    const edit = { path: "a", old_string: "b", new_string: "X" };
    expect(proposedText("edit_file", edit, "abcb")).toBe("aXcb");
    expect(proposedText("edit_file", { ...edit, replace_all: true }, "abcb")).toBe("aXcX");
    expect(proposedText("edit_file", { ...edit, new_string: "$&$&" }, "abc")).toBe("a$&$&c");
    expect(proposedText("edit_file", edit, "zzz")).toBeNull();
    expect(proposedText("edit_file", edit, null)).toBeNull();
    expect(proposedText("write_file", { path: "a", content: "new" }, null)).toBe("new");
    expect(proposedText("shell", { command: "x" }, "old")).toBeNull();
    expect(diffContent("/p/a", null, "new")).toEqual([
      { type: "diff", path: "/p/a", oldText: null, newText: "new" },
    ]);
    expect(diffContent("/p/a", "old", null)).toEqual([]);
  });

  it("stop reasons; long results are cut for the editor", () => {
    expect(stopReasonOf("end")).toBe("end_turn");
    expect(stopReasonOf("aborted")).toBe("cancelled");
    expect(stopReasonOf("max_turns")).toBe("max_turn_requests");
    expect(stopReasonOf("blocked")).toBe("refusal");
    expect(stopReasonOf("error")).toBeNull();
    const cut = textContent("x".repeat(9000));
    expect(cut.type === "content" && cut.content.type === "text" && cut.content.text).toMatch(
      /… \(1000 more characters\)$/,
    );
  });

  it("prompt blocks: text, resources, and an image's bytes apart from the text", () => {
    const { text, images } = promptOf([
      { type: "text", text: "look" },
      { type: "resource_link", name: "a.ts", uri: "file:///p/a%20b.ts" },
      { type: "resource", resource: { uri: "file:///p/c.ts", text: "const c = 1;" } },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]);
    expect(text).toContain("look");
    expect(text).toContain("[file: /p/a b.ts]");
    expect(text).toContain('<resource uri="/p/c.ts">\nconst c = 1;\n</resource>');
    expect(text).not.toContain("AAAA");
    expect(images).toEqual([{ data: "AAAA", mimeType: "image/png" }]);
  });

  it("the editor's MCP servers read as Keel's config", () => {
    const json = editorMcpJson([
      { name: "files", command: "npx", args: ["-y", "srv"], env: [{ name: "K", value: "v" }] },
      {
        type: "http",
        name: "web",
        url: "http://127.0.0.1:1/mcp",
        headers: [{ name: "A", value: "b" }],
      },
    ]);
    const read = parseMcpObject(json, { path: "editor", scope: "user" });
    expect(read.problems).toEqual([]);
    expect(read.servers.map((s) => [s.name, s.config.type])).toEqual([
      ["files", "stdio"],
      ["web", "http"],
    ]);
  });
});
