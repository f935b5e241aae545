/**
 * `buildPayload` is the event table's sample with the options' fields (src/hooks/payload.ts):
 * every event's payload it builds is one the event's own schema accepts, and an option lands
 * only in a field that takes its value.
 */
import { describe, expect, it } from "vitest";
import { COMMON_PAYLOAD, EVENT_TABLE } from "../../src/hooks/event-table.js";
import { buildPayload, HOOK_EVENTS } from "../../src/hooks/index.js";

const projectDir = "/work/project";

describe("buildPayload", () => {
  for (const event of HOOK_EVENTS) {
    it(`${event}: a payload its schema accepts`, () => {
      const { hook_event_name, ...rest } = buildPayload(event, { projectDir }) as Record<
        string,
        unknown
      >;
      expect(hook_event_name).toBe(event);
      const schema = COMMON_PAYLOAD().extend(EVENT_TABLE[event].payload().shape).strict();
      const parsed = schema.safeParse(rest);
      expect(parsed.error?.issues ?? []).toEqual([]);
    });
  }

  it("defaults to the event table's sample", () => {
    const stop = buildPayload("Stop", { projectDir });
    expect(stop.last_assistant_message).toBe("All done.");
    const pre = buildPayload("PreToolUse", { projectDir, input: { command: "ls" } });
    expect(pre).toMatchObject({ tool_name: "shell", tool_input: { command: "ls" } });
  });

  it("puts an option only where the field takes its value", () => {
    expect(buildPayload("SessionStart", { projectDir, source: "resume" }).source).toBe("resume");
    expect(buildPayload("ConfigChange", { projectDir, configSource: "user_settings" }).source).toBe(
      "user_settings",
    );
    // A compaction trigger is no Setup trigger: Setup keeps its sample's.
    expect(buildPayload("Setup", { projectDir, trigger: "manual" }).trigger).toBe("init");
    expect(buildPayload("PreCompact", { projectDir, trigger: "auto" }).trigger).toBe("auto");
    // An optional field the sample leaves out is filled when given.
    expect(
      buildPayload("StopFailure", { projectDir, lastAssistantMessage: "partial" })
        .last_assistant_message,
    ).toBe("partial");
  });

  it("fills the tool calls of a batch", () => {
    const batch = buildPayload("PostToolBatch", { projectDir, toolUseId: "call_7" });
    expect(batch.tool_calls.map((c) => c.tool_use_id)).toEqual(["call_7"]);
  });

  it("carries the fields Claude Code 2.1.332's hook input schemas require", () => {
    expect(buildPayload("UserPromptExpansion", { projectDir }).expansion_type).toBe(
      "slash_command",
    );
    // No custom instructions: null, not "".
    expect(buildPayload("PreCompact", { projectDir }).custom_instructions).toBeNull();
    const perm = EVENT_TABLE.PermissionRequest.payload();
    const call = { tool_name: "shell", tool_input: { command: "ls" }, tool_use_id: "c" };
    expect(perm.safeParse(call).success).toBe(false);
    expect(perm.safeParse({ ...call, permission_suggestions: [] }).success).toBe(true);
    const expansion = EVENT_TABLE.UserPromptExpansion.payload();
    const typed = {
      expansion_type: "slash_command",
      command_name: "review",
      command_args: "",
      command_source: "project",
      prompt: "p",
    };
    expect(expansion.safeParse(typed).success).toBe(true);
    const { expansion_type: _, ...untyped } = typed;
    expect(expansion.safeParse(untyped).success).toBe(false);
    const note = EVENT_TABLE.Notification.payload();
    expect(
      note.safeParse({ message: "m", title: "t", notification_type: "permission_prompt" }).success,
    ).toBe(true);
  });
});
