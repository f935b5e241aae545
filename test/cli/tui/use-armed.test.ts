import { connect, createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { armAfter } from "../../../src/cli/tui/use-armed.js";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A loopback connection: what `writer` writes, `reader` reads (as the TUI reads its terminal). */
async function loopback(): Promise<{ writer: Socket; reader: Socket }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const accepted = new Promise<Socket>((r) => server.once("connection", r));
  const reader = connect(address.port, "127.0.0.1");
  await new Promise<void>((r) => reader.once("connect", () => r()));
  const writer = await accepted;
  closers.push(() => {
    reader.destroy();
    writer.destroy();
    server.close();
  });
  return { writer, reader };
}

describe("armAfter", () => {
  it("arms only after keys that arrived within the pause were read, however late", async () => {
    const { writer, reader } = await loopback();
    const order: string[] = [];
    reader.on("data", () => order.push("key"));
    const done = new Promise<void>((r) => armAfter(20, () => r(void order.push("armed"))));
    // A key typed within the pause; then the process is held up (a loaded machine) until long
    // after the pause ended: timer and key are both due when the event loop runs again.
    writer.write("a");
    const until = Date.now() + 120;
    while (Date.now() < until) {
      // busy: nothing runs meanwhile
    }
    await done;
    expect(order).toEqual(["key", "armed"]);
  });

  it("cancelled, it never arms", async () => {
    let armed = false;
    const cancel = armAfter(5, () => {
      armed = true;
    });
    cancel();
    await new Promise((r) => setTimeout(r, 40));
    expect(armed).toBe(false);
  });
});
