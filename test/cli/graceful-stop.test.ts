import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '../sse-client.js';
import { buildTimeout, cliTestTimeout, createCli, type Cli, type Server } from './run-cli.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A POST whose body is sent in two halves, so the request is in flight for as long as the test wants. */
function startSlowPost(url: string, key: string, body: string) {
  const half = Math.floor(body.length / 2);
  let response: Promise<{ status: number; body: any }> = Promise.resolve({ status: 0, body: null });
  const request = http.request(url, { method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  response = new Promise((resolve, reject) => {
    request.on('response', (answer) => {
      let text = '';
      answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) }));
    });
    request.on('error', reject);
  });
  request.write(body.slice(0, half));
  return {
    finish() {
      request.end(body.slice(half));
      return response;
    },
  };
}

/** Whether a new connection is refused (the server no longer listens). */
async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
    return false;
  } catch (error) {
    return /ECONNREFUSED/.test(String((error as { cause?: unknown }).cause ?? error));
  }
}

describe('tabula serve on SIGTERM', () => {
  let cli: Cli;
  let server: Server;
  let key: string;
  let tableId: number;
  beforeAll(async () => {
    cli = await createCli({ env: { TABULA_DRAIN_SECONDS: '30' } });
    server = await cli.startServer();
    key = JSON.parse(fs.readFileSync(path.join(cli.dataDir, 'initial-credentials.json'), 'utf8')).api_key;
    const space = await server.request('POST', '/api/spaces/create', { key, body: { name: 'Drain' } });
    const table = await server.request('POST', `/api/space/${space.body.id}/tables/create`, { key, body: { name: 'Things', fields: [{ name: 'Name', type: 'text' }] } });
    tableId = table.body.id;
  }, buildTimeout);
  afterAll(async () => cli?.close());

  it('finishes the request in flight, refuses new connections, ends streams with event: end (shutdown), and exits 0', { timeout: cliTestTimeout }, async () => {
    const stream = await openStream(server.url, `/api/table/${tableId}/changes/stream`, { key });
    expect(stream.status).toBe(200);
    const inFlight = startSlowPost(`${server.url}/api/table/${tableId}/records/create`, key, JSON.stringify({ data: { name: 'sent while stopping' } }));
    // The server has the request's headers (and half its body) before it is asked to stop.
    await wait(500);
    process.kill(server.pid, 'SIGTERM');

    const end = await stream.waitForEvent('end', 15_000);
    expect(JSON.parse(end.data!)).toEqual({ reason: 'shutdown' });
    await stream.waitForClose();
    let refusedYet = false;
    for (const deadline = Date.now() + 15_000; !refusedYet && Date.now() < deadline; await wait(100)) refusedYet = await refused(server.url);
    expect(refusedYet, 'a new connection is refused while the request in flight runs').toBe(true);

    const answer = await inFlight.finish();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: expect.any(Number), data: { name: 'sent while stopping' } });
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toBe('');

    // What it acknowledged is there for the next process.
    const next = await cli.startServer();
    const read = await next.request('GET', `/api/table/${tableId}/record/${answer.body.id}/get`, { key });
    expect(read.body).toMatchObject({ id: answer.body.id, data: { name: 'sent while stopping' } });
  });

  it('kill -9 loses nothing it acknowledged: every write answered before the kill is there after a restart', { timeout: cliTestTimeout }, async () => {
    const victim = await cli.startServer();
    const acknowledged: number[] = [];
    for (let index = 0; index < 20; index++) {
      const created = await victim.request('POST', `/api/table/${tableId}/records/create`, { key, body: { data: { name: `acknowledged ${index}` } } });
      expect(created.status).toBe(200);
      acknowledged.push(created.body.id);
    }
    process.kill(victim.pid, 'SIGKILL');
    expect(await victim.stop()).toEqual({ code: null, signal: 'SIGKILL' });
    const next = await cli.startServer();
    for (const id of acknowledged) expect((await next.request('GET', `/api/table/${tableId}/record/${id}/get`, { key })).status).toBe(200);
    // The change log has them too: the sequencer of the next process picks up what the killed one left queued.
    const deadline = Date.now() + 20_000;
    let logged: number[] = [];
    while (Date.now() < deadline) {
      const changes = await next.request('POST', `/api/table/${tableId}/changes/list`, { key, body: { after: 0, limit: 1000 } });
      logged = (changes.body.changes as Array<{ record_id: number }>).map((change: { record_id: number }) => change.record_id);
      if (acknowledged.every((id) => logged.includes(id))) break;
      await wait(200);
    }
    expect(acknowledged.filter((id) => !logged.includes(id))).toEqual([]);
  });
});
