/** The tool cards still running, with their elapsed time ticking. */
import { Box, useAnimation } from "ink";
import type { ToolCardData } from "../transcript.js";
import { ToolCard } from "./tool-card.js";

/** Props of {@link LiveTools}. */
export interface LiveToolsProps {
  tools: readonly ToolCardData[];
  width: number;
}

/** Renders running cards; re-renders every 200 ms for the elapsed time. */
export function LiveTools({ tools, width }: LiveToolsProps) {
  useAnimation({ interval: 200 });
  const now = Date.now();
  return (
    <Box flexDirection="column">
      {tools.map((card) => (
        <ToolCard key={card.id} card={card} width={width} now={now} />
      ))}
    </Box>
  );
}
