// Test servers listen on loopback only and close with their keep-alive sockets, so a test run can always exit.
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 at a free port. */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
