import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * What every fake server needs: listen on a loopback port (0 = any free one), remember open sockets so
 * close() can cut them (a fake holding a request open must not keep the test process alive).
 */
export async function listenOnLoopback(
  server: Server,
  opts: { host: string; port?: number; sockets?: Set<Socket>; refuse?: () => boolean },
): Promise<{ origin: string; sockets: Set<Socket> }> {
  const sockets = opts.sockets ?? new Set<Socket>();
  server.on("connection", (socket) => {
    if (opts.refuse?.()) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return { origin: `http://${host}:${port}`, sockets };
}

/** Delays a fake can cut short on close(), so a "slow" mode never keeps the test process alive. */
export function cancellableDelays() {
  const pending = new Set<() => void>();
  return {
    delay: (ms: number) =>
      new Promise<void>((resolve) => {
        const cancel = () => {
          clearTimeout(timer);
          pending.delete(cancel);
          resolve();
        };
        const timer = setTimeout(cancel, ms);
        pending.add(cancel);
      }),
    cancelAll() {
      for (const cancel of [...pending]) cancel();
    },
  };
}
