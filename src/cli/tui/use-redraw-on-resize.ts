/**
 * Redraws the whole transcript when the terminal's width changes. The terminal reflows what is
 * already on screen, so Ink's erase of its previous frame misses rows (narrower) or eats
 * transcript rows (wider) and leaves duplicated, half-erased lines; clearing the screen and
 * printing everything again at the new width is the only way to keep the transcript intact.
 */
import { useEffect, useRef } from "react";

/** Calls `redraw` once the width has been stable for `settleMs` (a drag sends many resizes). */
export function useRedrawOnResize(columns: number, redraw: () => void, settleMs = 120): void {
  const initial = useRef(true);
  const latest = useRef(redraw);
  latest.current = redraw;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of the width
  useEffect(() => {
    // `columns` is the trigger: the first run is the mount, every later one a resize.
    if (initial.current) {
      initial.current = false;
      return;
    }
    const timer = setTimeout(() => latest.current(), settleMs);
    return () => clearTimeout(timer);
  }, [columns, settleMs]);
}
