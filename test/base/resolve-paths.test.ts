/** The one resolver of home and KEEL_HOME that Keel and its sandbox share. */
import { userInfo } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  accountHome,
  childPath,
  privatePlaces,
  relativeInside,
  resolveHome,
  resolveKeelHome,
} from "../../src/base/resolve-paths.js";
import { keelHomeDir } from "../../src/cli/paths.js";
import { resolveHookPaths } from "../../src/hooks/config/paths.js";
import { keelHomeFrom } from "../../src/session/paths.js";

const account = userInfo().homedir;

describe("resolveHome", () => {
  it("an absolute HOME is the home", () => {
    expect(resolveHome({ HOME: "/srv/me/" })).toBe("/srv/me");
  });
  it("HOME unset, empty or relative: the account's home (cron, systemd, env -i)", () => {
    expect(accountHome()).toBe(account);
    expect(resolveHome({})).toBe(account);
    expect(resolveHome({ HOME: "" })).toBe(account);
    expect(resolveHome({ HOME: "rel/home" })).toBe(account);
  });
});

describe("resolveKeelHome", () => {
  it("a relative KEEL_HOME is made absolute from where Keel started", () => {
    expect(resolveKeelHome({ KEEL_HOME: "k" }, "/work/x")).toBe("/work/x/k");
  });
  it("KEEL_HOME empty or unset: <home>/.keel, never a relative .keel in the project", () => {
    expect(resolveKeelHome({ KEEL_HOME: "", HOME: "" }, "/p")).toBe(join(account, ".keel"));
    expect(resolveKeelHome({}, "/p")).toBe(join(account, ".keel"));
  });
  it("every Keel resolver agrees with it (cli, session, hooks)", () => {
    const saved = { HOME: process.env.HOME, KEEL_HOME: process.env.KEEL_HOME };
    try {
      for (const env of [
        { HOME: undefined, KEEL_HOME: "rel-keel" },
        { HOME: "", KEEL_HOME: "" },
      ]) {
        for (const [k, v] of Object.entries(env)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
        const expected = resolveKeelHome(process.env);
        expect(keelHomeDir()).toBe(expected);
        expect(keelHomeFrom()).toBe(expected);
        expect(resolveHookPaths({ projectDir: "/p" }).keelHome).toBe(expected);
        expect(resolveHookPaths({ projectDir: "/p" }).homeDir).toBe(resolveHome(process.env));
      }
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe("privatePlaces", () => {
  it("Keel's own home and KEEL_HOME, the account's home and the child's, all absolute", () => {
    const places = privatePlaces({
      keelEnv: { KEEL_HOME: "rel" },
      childEnv: { HOME: "/child/home" },
      cwd: "/start",
    });
    expect(places.homes).toEqual(expect.arrayContaining([account, "/child/home"]));
    expect(places.keelHomes).toEqual(expect.arrayContaining(["/start/rel", "/child/home/.keel"]));
  });
  it("a child environment without HOME or KEEL_HOME hides Keel's anyway", () => {
    const places = privatePlaces({ keelEnv: { HOME: "/h", KEEL_HOME: "/k" }, childEnv: {} });
    expect(places.homes).toContain("/h");
    expect(places.keelHomes).toContain("/k");
  });
});

describe("childPath and relativeInside: path.join / path.relative by string (no character walk)", () => {
  const dirs = [
    "/",
    "/a",
    "/home/u/project",
    "/a/b/",
    "/a//b",
    "/a/./b",
    "/a/../b",
    "/a/...",
    "rel/dir",
    "",
  ];
  const names = [[], [".keel"], [".claude", "settings.json"], [".."], ["."], ["a/b"], [""]];
  it("gives exactly what path.join gives", () => {
    for (const dir of dirs) {
      for (const n of names)
        expect([dir, n, childPath(dir, ...n)]).toEqual([dir, n, join(dir, ...n)]);
    }
  });
  it("gives path.relative's answer when inside (or the same), null when not", () => {
    const paths = [...dirs, "/a/b/c", "/a/bc", "/home/u/project/.keel/settings.json", "/home/u"];
    for (const base of dirs) {
      for (const path of paths) {
        const rel = relative(base, path);
        const inside = !(rel === ".." || rel.startsWith("../") || rel.startsWith("/"));
        expect([base, path, relativeInside(base, path)]).toEqual([base, path, inside ? rel : null]);
      }
    }
  });
});
