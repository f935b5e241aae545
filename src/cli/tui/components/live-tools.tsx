/** The tool cards still running, with their elapsed time ticking. */
import { Box, useAnimation } from "ink";
import type { ToolCardData } from "../transcript.js";
import { ToolCard } from "./tool-card.js";

/** Props of {@link LiveTools}. */
export interface LiveToolsProps {
  tools: readonly ToolCardData[];
  width: number;
  home?: string;
  /** The newest card waits for the user's answer to a permission prompt. */
  awaitingApproval?: boolean;
  /** A hook is running (before or after the newest card's tool). */
  hookRunning?: boolean;
}

/** Renders running cards; re-renders every 200 ms for the elapsed time. */
export function LiveTools({
  tools,
  width,
  home,
  awaitingApproval = false,
  hookRunning = false,
}: LiveToolsProps) {
  // Nothing ticks while a permission prompt waits: the frame stays still under the question.
  useAnimation({ interval: 200, isActive: !awaitingApproval });
  const now = Date.now();
  return (
    <Box flexDirection="column">
      {tools.map((card, i) => (
        <ToolCard
          key={card.id}
          card={card}
          width={width}
          now={now}
          awaitingApproval={awaitingApproval && i === tools.length - 1}
          awaitingHook={hookRunning && i === tools.length - 1}
          {...(home ? { home } : {})}
        />
      ))}
    </Box>
  );
}
