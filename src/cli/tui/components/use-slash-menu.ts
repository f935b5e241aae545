/** The slash-command menu under the prompt: its items for the text and the selected one. */
import { useMemo, useRef, useState } from "react";
import { completeSlash, type DynamicArgs } from "../slash.js";

/**
 * The slash menu's items for the text and its selection. Like the buffer, the selection is read
 * by keys that arrive in the same chunk as the arrow that moved it (Down then Enter): the latest
 * value is kept in a ref. `menuNow` is the menu for the text as it is at that key.
 */
export function useSlashMenu(
  text: string,
  latestText: () => string,
  isActive: boolean,
  dynamicArgs: DynamicArgs | undefined,
) {
  const [selected, setSelectedState] = useState(0);
  const selectedRef = useRef(0);
  const setSelected = (update: number | ((i: number) => number)) => {
    selectedRef.current = typeof update === "number" ? update : update(selectedRef.current);
    setSelectedState(selectedRef.current);
  };
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const complete = (t: string) => completeSlash(t, dynamicArgs ? { dynamic: dynamicArgs } : {});
  // biome-ignore lint/correctness/useExhaustiveDependencies: complete reads only dynamicArgs
  const items = useMemo(() => complete(text), [text, dynamicArgs]);
  const open = isActive && items.length > 0 && dismissedFor !== text;
  const menuNow = () => {
    const now = latestText();
    const list = complete(now);
    const isOpen = isActive && list.length > 0 && dismissedFor !== now;
    const pick = isOpen ? list[Math.min(selectedRef.current, list.length - 1)] : undefined;
    return { open: isOpen, list, pick };
  };
  const dismiss = () => setDismissedFor(latestText());
  return { items, open, selected, setSelected, menuNow, dismiss, complete };
}

/** What {@link useSlashMenu} gives the prompt. */
export type SlashMenuState = ReturnType<typeof useSlashMenu>;
