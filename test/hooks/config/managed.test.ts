/**
 * Managed hooks (docs/security.md "Managed settings"): the administrator's file is read first and trusted; a user or
 * project `disableAllHooks` cannot switch its hooks off; `allowManagedHooksOnly` there drops
 * every other source with a warning, and means nothing anywhere else.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadHooks } from "../../../src/hooks/index.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hook = (command: string) => ({
  PreToolUse: [{ matcher: "shell", hooks: [{ type: "command", command }] }],
});

function setUp(files: { managed?: object; user?: object; project?: object }) {
  dir = mkdtempSync(join(tmpdir(), "keel-managed-hooks-"));
  const projectDir = join(dir, "project");
  const keelHome = join(dir, "home", ".keel");
  mkdirSync(join(projectDir, ".keel"), { recursive: true });
  mkdirSync(keelHome, { recursive: true });
  const managedSettings = join(dir, "managed.json");
  if (files.managed) writeFileSync(managedSettings, JSON.stringify(files.managed));
  if (files.user) writeFileSync(join(keelHome, "settings.json"), JSON.stringify(files.user));
  if (files.project) {
    writeFileSync(join(projectDir, ".keel", "settings.json"), JSON.stringify(files.project));
  }
  return { projectDir, keelHome, homeDir: join(dir, "home"), managedSettings };
}

describe("managed hooks", () => {
  it("are read first, marked managed, and survive a user and project disableAllHooks", async () => {
    const paths = setUp({
      managed: { hooks: hook("./audit.sh") },
      user: { disableAllHooks: true, hooks: hook("./user.sh") },
      project: { disableAllHooks: true, hooks: hook("./project.sh") },
    });
    const loaded = await loadHooks(paths);
    const byCommand = Object.fromEntries(
      loaded.hooks.map((h) => [
        h.handler.type === "command" ? h.handler.command : "",
        { active: h.active, managed: h.source.managed === true },
      ]),
    );
    expect(loaded.hooks[0]?.source.path).toBe(paths.managedSettings);
    expect(byCommand["./audit.sh"]).toEqual({ active: true, managed: true });
    expect(byCommand["./user.sh"]?.active).toBe(false);
    expect(byCommand["./project.sh"]?.active).toBe(false);
  });

  it("a managed disableAllHooks switches every hook off, its own included", async () => {
    const paths = setUp({
      managed: { disableAllHooks: true, hooks: hook("./audit.sh") },
      user: { hooks: hook("./user.sh") },
    });
    const loaded = await loadHooks(paths);
    expect(loaded.hooks.map((h) => h.active)).toEqual([false, false]);
  });

  it("allowManagedHooksOnly drops every other source, with a warning naming the file", async () => {
    const paths = setUp({
      managed: { allowManagedHooksOnly: true, hooks: hook("./audit.sh") },
      user: { hooks: hook("./user.sh") },
      project: { hooks: hook("./project.sh") },
    });
    const loaded = await loadHooks(paths);
    const active = loaded.hooks.filter((h) => h.active);
    expect(active.map((h) => h.source.path)).toEqual([paths.managedSettings]);
    const dropped = loaded.hooks.filter((h) => !h.active);
    expect(dropped).toHaveLength(2);
    for (const h of dropped) {
      expect(h.problems[0]?.message).toContain('"allowManagedHooksOnly": true');
    }
  });

  it("allowManagedHooksOnly in user settings is ignored with a warning", async () => {
    const paths = setUp({ user: { allowManagedHooksOnly: true, hooks: hook("./user.sh") } });
    const loaded = await loadHooks(paths);
    expect(loaded.hooks.every((h) => h.active)).toBe(true);
    expect(loaded.problems.map((p) => p.message).join("\n")).toContain(
      "only honoured in managed settings",
    );
  });

  it("a malformed managed file is an error naming the file and line", async () => {
    const paths = setUp({});
    writeFileSync(paths.managedSettings, '{\n  "hooks": {,\n}');
    const loaded = await loadHooks(paths);
    const p = loaded.problems.find((x) => x.path === paths.managedSettings);
    expect(p?.severity).toBe("error");
    expect(p?.line).toBe(2);
  });
});
