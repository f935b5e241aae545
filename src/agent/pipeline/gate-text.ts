/** How untrusted hooks are named to people and the model: file, event, command, on one line. */
import { isAbsolute, relative } from "node:path";
import type { HookDefinition } from "../../hooks/index.js";
import { handlerLabel } from "../../hooks/index.js";

/** `PreToolUse \`./guard.sh\` (.keel/settings.json)`: short, one line. */
export function handlerLabelOf(hook: HookDefinition, projectDir: string): string {
  return `${hook.event} \`${cut(handlerLabel(hook.handler))}\` (${fileOf(hook, projectDir)})`;
}

/** `.keel/settings.json:4  PreToolUse  ./guard.sh`: one line per hook for `keel run`. */
export function untrustedHookLine(hook: HookDefinition, projectDir: string): string {
  const line = hook.location ? `:${hook.location.line}` : "";
  return `${fileOf(hook, projectDir)}${line}  ${hook.event}  ${cut(handlerLabel(hook.handler))}`;
}

function fileOf(hook: HookDefinition, projectDir: string): string {
  const rel = relative(projectDir, hook.source.path);
  return rel.startsWith("..") || isAbsolute(rel) ? hook.source.path : rel;
}

/** The first line, at most 80 characters, with control characters made harmless. */
function cut(text: string): string {
  const first = (text.split("\n")[0] ?? "").replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}
