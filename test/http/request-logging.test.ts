import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { pino } from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable } from '../factories.js';

/** A pino logger at `level` whose lines are kept, parsed, in `lines`. */
function keptLogger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, destination), lines };
}

/** A 500: a field added to a table whose record table was dropped behind the service's back. */
async function internalError(ctx: Parameters<typeof call>[0]) {
  const world = await createAccount(ctx);
  const space = await createSpace(ctx, world);
  const table = await createTable(ctx, world, space.id, { name: 'Broken', fields: [{ name: 'Name', type: 'text' }] });
  await sql`drop table ${sql.table(`rec_${table.id}`)}`.execute(ctx.container.database.db);
  const response = await call(ctx, 'POST', `/api/table/${table.id}/fields/create`, { key: world.accountKey, body: { name: 'Extra', type: 'text' } });
  expect(response.status).toBe(500);
  return response.body.error.request_id as string;
}

// Fastify logs requests only when given the logger (info and below); above, Tabula's own lines
// still carry the request id (app.ts, error-handler.ts).
describe('logging at warn (the default)', () => {
  const kept = keptLogger('warn');
  const ctx = useTestApp({ logger: kept.logger });
  beforeEach(() => {
    kept.lines.length = 0;
  });

  it("logs a 500's cause with the id its answer names, and no line per request", async () => {
    const requestId = await internalError(ctx);
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    const failures = kept.lines.filter((line) => line.msg === 'request failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 50, requestId, err: { type: expect.any(String) } });
    expect(kept.lines.filter((line) => line.msg === 'request completed' || line.msg === 'incoming request')).toEqual([]);
  });

  it('gives each request an id of its own', async () => {
    const ids = [await internalError(ctx), await internalError(ctx)];
    expect(new Set(ids).size).toBe(2);
    expect(ids[0].split('-')[0]).toBe(ids[1].split('-')[0]);
  });
});

describe('logging at info', () => {
  const kept = keptLogger('info');
  const ctx = useTestApp({ logger: kept.logger });

  it('logs each request as it comes and as it is answered, with its id', async () => {
    kept.lines.length = 0;
    expect((await call(ctx, 'GET', '/healthz')).status).toBe(200);
    const incoming = kept.lines.find((line) => line.msg === 'incoming request');
    const completed = kept.lines.find((line) => line.msg === 'request completed');
    expect(incoming).toMatchObject({ reqId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-z]+$/) });
    expect(completed).toMatchObject({ reqId: incoming!.reqId, res: { statusCode: 200 } });
  });

  it("logs a 500's cause with the id its answer names", async () => {
    const requestId = await internalError(ctx);
    expect(kept.lines.filter((line) => line.msg === 'request failed')).toEqual([expect.objectContaining({ requestId })]);
  });
});
