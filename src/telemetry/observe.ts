/**
 * Tees an agent's event streams into its session's telemetry, for a front end that consumes
 * those streams itself (the TUI: src/cli/tui/session-backend.ts). The session's span ends when
 * the agent's `end()` stream is done (SessionEnd has run), so a /clear or /resume that replaces
 * the agent closes the old session's span before the new one's spans begin.
 */
import type { AgentEvent } from "../agent/index.js";
import type { SessionTelemetry } from "./index.js";

type Streams = {
  start(...args: never[]): AsyncIterable<AgentEvent>;
  runTurn(...args: never[]): AsyncIterable<AgentEvent>;
  compact(...args: never[]): AsyncIterable<AgentEvent>;
  end(...args: never[]): AsyncIterable<AgentEvent>;
};

async function* tee(events: AsyncIterable<AgentEvent>, into: SessionTelemetry) {
  for await (const ev of events) {
    into.event(ev);
    yield ev;
  }
}

/** The same agent, whose streams also feed `into`. */
export function observeAgent<A extends Streams>(agent: A, into: SessionTelemetry): A {
  return {
    ...agent,
    start: (...args: Parameters<A["start"]>) => tee(agent.start(...args), into),
    runTurn: (...args: Parameters<A["runTurn"]>) => tee(agent.runTurn(...args), into),
    compact: (...args: Parameters<A["compact"]>) => tee(agent.compact(...args), into),
    end: (...args: Parameters<A["end"]>) =>
      (async function* () {
        try {
          yield* tee(agent.end(...args), into);
        } finally {
          into.end();
        }
      })(),
  };
}
