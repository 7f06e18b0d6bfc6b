import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real service (PostgreSQL, Redis, an S3 peer), for
 * tests of what Tabula does while that service restarts: `stop()` resets every connection
 * through it and closes its port (what a stopped service looks like to its clients:
 * connections broken, new ones refused), `start()` listens on the same port again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        sockets.add(client);
        sockets.add(upstream);
        const end = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        for (const socket of [client, upstream]) {
          socket.on('error', end);
          socket.on('close', end);
        }
        client.pipe(upstream).pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as AddressInfo).port;
        server = next;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    /** Breaks every connection (a reset, as a killed server's) and refuses new ones until `start()`. */
    async stop(): Promise<void> {
      const stopping = server;
      server = null;
      for (const socket of sockets) socket.resetAndDestroy();
      sockets.clear();
      await new Promise((resolve) => stopping?.close(resolve) ?? resolve(undefined));
    },
    start: listen,
    async close(): Promise<void> {
      await this.stop();
    },
  };
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
