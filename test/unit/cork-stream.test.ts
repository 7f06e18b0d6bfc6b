import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corkStream } from '../../src/modules/changes/change-subscriber.js';

type Counts = { writes: number; writevs: number };

/**
 * A page of change frames leaves in one socket write (change-subscriber.ts, corkStream): Node's
 * `ServerResponse.uncork` sends the chunks it held one write each, which cost the server a third
 * of its CPU while a console tab watched a 100,000-row import.
 */
describe('corkStream', () => {
  let server: http.Server;
  /** What the request under test does with its response's 1,000 frames. */
  let writeFrames: (res: http.ServerResponse, frames: Buffer[]) => void;
  let reportCounts: (counts: Counts) => void;

  /** The frames written as the feed writes a page, counting the socket's writes (`_write` and `_writev` calls). */
  function writePage(res: http.ServerResponse) {
    const socket = res.socket as Socket & { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
    const counts: Counts = { writes: 0, writevs: 0 };
    const write = socket._write.bind(socket);
    const writev = socket._writev.bind(socket);
    socket._write = (...args) => ((counts.writes += 1), write(...args));
    socket._writev = (...args) => ((counts.writevs += 1), writev(...args));
    writeFrames(res, Array.from({ length: 1000 }, (_, index) => Buffer.from(`id: ${index + 1}\ndata: {}\n\n`)));
    reportCounts({ ...counts });
    res.end();
  }

  beforeAll(async () => {
    server = http.createServer((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': opened\n\n');
      // As the feed's pages come: in a later tick than the stream's first write (Node keeps the
      // socket corked until the next tick after a response's write).
      setImmediate(() => writePage(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** One request whose frames `write` writes: the socket writes that took and the body the client read. */
  async function serve(write: typeof writeFrames) {
    writeFrames = write;
    const counted = new Promise<Counts>((resolve) => (reportCounts = resolve));
    const { port } = server.address() as AddressInfo;
    const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    return { ...(await counted), body };
  }

  it('sends a run of 1,000 frames as one socket write, every frame in order', async () => {
    const result = await serve((res, frames) => {
      const uncork = corkStream(res);
      for (const frame of frames) res.write(frame);
      uncork();
    });
    expect(result.writes + result.writevs).toBe(1);
    const ids = [...result.body.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, index) => index + 1));
  });

  // Node.js 22's `ServerResponse.uncork` sends what it held one write a chunk; Node.js 24's sends
  // it in one write, so there the guard has nothing to guard against (and stays harmless).
  it.runIf(Number(process.versions.node.split('.')[0]) < 24)('(what it guards against, on Node.js 22: res.cork alone writes each frame on its own)', async () => {
    const result = await serve((res, frames) => {
      res.cork();
      for (const frame of frames) res.write(frame);
      res.uncork();
    });
    expect(result.writes + result.writevs).toBeGreaterThan(1000);
  });
});
