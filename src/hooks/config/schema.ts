/**
 * Zod schemas for every hook source. Entries are validated one at a time so that one bad
 * entry is a problem naming its field while the rest of the file still loads. Each schema is
 * built on first use (util.lazy): listing a project without hook files never builds one.
 */
import { z } from "zod";
import { lazy } from "../../base/index.js";
import { kinds as k, opt, quickFirst, quickObject, req } from "./quick-check.js";

/** One handler as written in a native (keel / claude / tutorial) file or a cagent YAML file.
 *  Accepts the seed-004 spellings `mode`, `condition`, `async_mode`, `payload_template`. */
const handlerInputZod = lazy(() =>
  z.object({
    type: z.string().optional(),
    mode: z.string().optional(),
    command: z.string().optional(),
    /** Exec form: Keel's `[program, ...args]`, or Claude Code's arguments of `command` (may be empty). */
    args: z.array(z.string()).optional(),
    cwd: z.string().optional(),
    timeout: z.number().positive().optional(),
    if: z.string().optional(),
    condition: z.string().optional(),
    async: z.boolean().optional(),
    async_mode: z.boolean().optional(),
    onTimeout: z.enum(["block", "allow"]).optional(),
    onError: z.enum(["block", "allow"]).optional(),
    onFailure: z.enum(["continue", "block"]).optional(),
    description: z.string().optional(),
    statusMessage: z.string().optional(),
    once: z.boolean().optional(),
    asyncRewake: z.boolean().optional(),
    shell: z.string().min(1).optional(),
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    allowedEnvVars: z.array(z.string()).optional(),
    payloadTemplate: z.unknown().optional(),
    payload_template: z.unknown().optional(),
    prompt: z.string().optional(),
    model: z.string().optional(),
    maxTurns: z.number().int().positive().optional(),
    /** mcp_tool hooks (Claude Code): the server, its tool and the tool's arguments. */
    server: z.string().optional(),
    tool: z.string().optional(),
    input: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type HandlerInput = z.infer<ReturnType<typeof handlerInputZod>>;

/** Claude Code's nested group: a matcher and its handlers. */
const groupZod = lazy(() =>
  z.object({
    matcher: z.string().optional(),
    match: z.string().optional(),
    hooks: z.array(z.unknown()),
  }),
);

/** The flat form (Reasonix-like / seed-004): matcher and handler fields in one object. */
const flatEntryZod = lazy(() =>
  handlerInputZod().extend({
    matcher: z.string().optional(),
    match: z.string().optional(),
    event: z.string().optional(),
  }),
);

/** A Reasonix entry: `timeout` is in milliseconds. */
const reasonixEntryZod = lazy(() =>
  z.object({
    match: z.string().optional(),
    command: z.string().optional(),
    description: z.string().optional(),
    timeout: z.number().positive().optional(),
    cwd: z.string().optional(),
  }),
);

/** The parts of a Keel settings file the hooks engine reads (other keys are left alone). */
const keelSettingsZod = lazy(() =>
  z.looseObject({
    hooks: z.unknown().optional(),
    /** `<dialect>: false` switches a format off; `cagent` names YAML agent files. */
    compat: z
      .looseObject({
        cagent: z.union([z.boolean(), z.string(), z.array(z.string())]).optional(),
      })
      .optional(),
    /** http hooks may reach private networks (honoured only in user-level files). */
    allowPrivateNetworks: z.boolean().optional(),
    disableAllHooks: z.boolean().optional(),
    /** The default `onError` of every command hook (see HandlerCommon.onError). */
    hooksOnError: z.enum(["block", "allow"]).optional(),
    /** Managed settings only: every hook outside the managed file is dropped. */
    allowManagedHooksOnly: z.boolean().optional(),
  }),
);
export type KeelSettingsFile = z.infer<ReturnType<typeof keelSettingsZod>>;

/** The top level of any JSON hooks file: an object; `hooks` is checked entry by entry. */
const hooksFileZod = lazy(() =>
  z.looseObject({
    hooks: z.unknown().optional(),
    disableAllHooks: z.boolean().optional(),
  }),
);

/** A cagent agent file: `agents.<name>.hooks.<event_key>`. */
export const cagentFileSchema = lazy(() =>
  z.looseObject({
    agents: z
      .record(z.string(), z.looseObject({ hooks: z.unknown().optional() }).nullable())
      .optional(),
  }),
);

// The quick checks in front of the schemas above (quick-check.ts): field for field the same
// shapes; test/hooks/config/quick-check.test.ts holds them to zod's answers.
const handlerShape = {
  type: opt(k.string),
  mode: opt(k.string),
  command: opt(k.string),
  args: opt(k.strings),
  cwd: opt(k.string),
  timeout: opt(k.positive),
  if: opt(k.string),
  condition: opt(k.string),
  async: opt(k.boolean),
  async_mode: opt(k.boolean),
  onTimeout: opt(k.oneOf("block", "allow")),
  onError: opt(k.oneOf("block", "allow")),
  onFailure: opt(k.oneOf("continue", "block")),
  description: opt(k.string),
  statusMessage: opt(k.string),
  once: opt(k.boolean),
  asyncRewake: opt(k.boolean),
  shell: opt(k.nonEmptyString),
  url: opt(k.string),
  headers: opt(k.stringRecord),
  allowedEnvVars: opt(k.strings),
  payloadTemplate: opt(k.unknown),
  payload_template: opt(k.unknown),
  prompt: opt(k.string),
  model: opt(k.string),
  maxTurns: opt(k.positiveInt),
  server: opt(k.string),
  tool: opt(k.string),
  input: opt(k.unknownRecord),
};
const matcherShape = { matcher: opt(k.string), match: opt(k.string) };

/** One handler as written in a native (keel / claude / tutorial) file or a cagent YAML file. */
export const handlerInputSchema = lazy(() =>
  quickFirst(quickObject(handlerShape, false), handlerInputZod),
);
/** Claude Code's nested group: a matcher and its handlers. */
export const groupSchema = lazy(() =>
  quickFirst(quickObject({ ...matcherShape, hooks: req(k.unknowns) }, false), groupZod),
);
/** The flat form (Reasonix-like / seed-004): matcher and handler fields in one object. */
export const flatEntrySchema = lazy(() =>
  quickFirst(
    quickObject({ ...handlerShape, ...matcherShape, event: opt(k.string) }, false),
    flatEntryZod,
  ),
);
/** A Reasonix entry: `timeout` is in milliseconds. */
export const reasonixEntrySchema = lazy(() =>
  quickFirst(
    quickObject(
      {
        match: opt(k.string),
        command: opt(k.string),
        description: opt(k.string),
        timeout: opt(k.positive),
        cwd: opt(k.string),
      },
      false,
    ),
    reasonixEntryZod,
  ),
);
/** The parts of a Keel settings file the hooks engine reads (other keys are left alone). */
export const keelSettingsSchema = lazy(() =>
  quickFirst(
    quickObject(
      {
        hooks: opt(k.unknown),
        compat: opt(quickObject({ cagent: opt(k.firstOf(k.boolean, k.string, k.strings)) }, true)),
        allowPrivateNetworks: opt(k.boolean),
        disableAllHooks: opt(k.boolean),
        hooksOnError: opt(k.oneOf("block", "allow")),
        allowManagedHooksOnly: opt(k.boolean),
      },
      true,
    ),
    keelSettingsZod,
  ),
);
/** The top level of any JSON hooks file: an object; `hooks` is checked entry by entry. */
export const hooksFileSchema = lazy(() =>
  quickFirst(
    quickObject({ hooks: opt(k.unknown), disableAllHooks: opt(k.boolean) }, true),
    hooksFileZod,
  ),
);
