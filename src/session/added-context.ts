/**
 * Text the agent adds to user messages besides what the user typed: hook output
 * (`<hook-context>`, written by agent/hook-adapter/fire.ts) and the memory files (`<project-memory>`,
 * agent/memory.ts, a message of its own before the first prompt). Session lists and replays
 * show what the user typed, so they take these out — here, in one place.
 */
const ADDED = [
  /<hook-context event="[^"]*">[\s\S]*?<\/hook-context>/g,
  /<project-memory>[\s\S]*?<\/project-memory>/g,
];

/** `content` without the blocks the agent added; what is left is what the user typed. */
export function withoutAddedContext(content: string): string {
  return ADDED.reduce((text, block) => text.replace(block, " "), content).trim();
}
