import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, type Cli, cliTestTimeout, createCli, ensureBuilt, executeOnDatabase as execute, expectSingleJsonObject, repoRoot, type Server } from './run-cli.js';

/** `tabula records restore`, `tabula changes tail|purge`, `tabula trash purge`, and the server's scheduled purge. */

interface Change {
  seq: number;
  kind: string;
  record_id: number;
}


const linesOf = (stdout: string): Change[] => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Change);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('tabula records restore, changes tail, trash purge', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  let server: Server;
  let post: (url: string, body?: unknown) => Promise<any>;
  let tableId: number;
  const allChanges = async (after = 0): Promise<Change[]> => {
    const found: Change[] = [];
    for (;;) {
      const page = await post(`/api/table/${tableId}/changes/list`, { after, limit: 1000 });
      found.push(...page.changes);
      if (page.changes.length < 1000) return found;
      after = page.next_after;
    }
  };

  beforeAll(async () => {
    // The server purges every second: only what is backdated below is old enough to go.
    cli = await createCli({ env: { TABULA_PURGE_INTERVAL: '1s' } });
    const owner = await cli.json('init', '--email', 'owner@example.com', '--json');
    server = await cli.startServer();
    post = async (url, body = {}) => {
      const response = await server.request('POST', url, { key: owner.api_key, body });
      expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(200);
      return response.body;
    };
    const space = await post('/api/spaces/create', { name: 'Changes' });
    tableId = (await post(`/api/space/${space.id}/tables/create`, { name: 'Deals', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
  }, 120_000);
  afterAll(() => cli?.close(), 60_000);

  it('records restore puts records back; --json prints {restored, not_found}; an id not in the trash exits 1', { timeout: cliTestTimeout }, async () => {
    const [a, b, c] = (await post(`/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'a' } }, { data: { name: 'b' } }, { data: { name: 'c' } }] })) as Array<{ id: number }>;
    await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [a.id, b.id, c.id] });

    const partial = await cli.run('records', 'restore', '--table', String(tableId), String(a.id), String(b.id), '999999', '--json');
    expect(partial.code).toBe(1);
    expect(expectSingleJsonObject(partial.stdout)).toEqual({ restored: [a.id, b.id], not_found: [999999] });
    expect(partial.stderr).toBe(`tabula records: not in the trash of table ${tableId}: 999999\n`);

    expect(await cli.ok('records', 'restore', '--table', String(tableId), String(c.id))).toBe(`restored 1 records (${c.id})\n`);
    const ids = (await post(`/api/table/${tableId}/records/ids`, {})) as number[];
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect(await cli.run('records', 'restore', '--table', String(tableId))).toMatchObject({ code: 2, stderr: expect.stringContaining('records restore needs --table ID and at least one RECORD_ID') });
    expect(await cli.run('records', 'restore', '--table', '999', '1')).toMatchObject({ code: 1, stderr: expect.stringContaining('Table 999 not found') });
  });

  it('changes tail prints every change as one JSON line in seq order, past a page of 1,000, and from --after', { timeout: cliTestTimeout }, async () => {
    await post(`/api/table/${tableId}/records/create_batch`, { records: Array.from({ length: 1000 }, (_, n) => ({ data: { name: `bulk ${n}` } })) });
    await post(`/api/table/${tableId}/records/create_batch`, { records: Array.from({ length: 200 }, (_, n) => ({ data: { name: `more ${n}` } })) });
    const expected = await allChanges();
    expect(expected.length).toBeGreaterThan(1200);

    const result = await cli.run('changes', 'tail', '--table', String(tableId));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const printed = linesOf(result.stdout);
    expect(printed).toEqual(expected);
    expect(new Set(printed.map((change) => change.kind))).toEqual(new Set(['record.created', 'record.deleted', 'record.restored']));

    const from = expected[expected.length - 3].seq;
    expect(linesOf(await cli.ok('changes', 'tail', '--table', String(tableId), '--after', String(from)))).toEqual(expected.slice(-2));
    expect(await cli.run('changes', 'tail', '--table', String(tableId), '--after', '1.5')).toMatchObject({ code: 2, stderr: expect.stringContaining('--after must be a change seq') });
    expect(await cli.run('changes', 'tail', '--table', '999')).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('Table 999 not found') });
  });

  it('changes tail --follow prints what is committed later, until SIGINT (exit 0)', { timeout: cliTestTimeout }, async () => {
    const last = (await allChanges()).at(-1)!.seq;
    const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'main.js'), 'changes', 'tail', '--table', String(tableId), '--after', String(last), '--follow', '--data', cli.dataDir], { env: cli.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await wait(1500);
      expect(stdout).toBe('');
      const record = await post(`/api/table/${tableId}/records/create`, { data: { name: 'later' } });
      await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { name: 'later still' } });
      const deadline = Date.now() + 20_000;
      while (linesOf(stdout).length < 2 && Date.now() < deadline) await wait(100);
      expect(linesOf(stdout).map((change) => [change.kind, change.record_id])).toEqual([
        ['record.created', record.id],
        ['record.updated', record.id],
      ]);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(stderr).toBe('');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('trash purge and changes purge run retention now; --as-of moves the clock; tail warns about a purged cursor', { timeout: cliTestTimeout }, async () => {
    const record = await post(`/api/table/${tableId}/records/create`, { data: { name: 'going' } });
    await post(`/api/table/${tableId}/record/${record.id}/delete`);
    const inThirtyOneDays = new Date(Date.now() + 31 * 24 * 3600 * 1000).toISOString();
    expect(await cli.json('trash', 'purge', '--json')).toEqual({ purged: 0 });
    expect((await cli.json('trash', 'purge', '--as-of', inThirtyOneDays, '--json')).purged).toBeGreaterThanOrEqual(1);
    const restore = await cli.run('records', 'restore', '--table', String(tableId), String(record.id), '--json');
    expect(expectSingleJsonObject(restore.stdout)).toEqual({ restored: [], not_found: [record.id] });

    const last = (await allChanges()).at(-1)!.seq;
    expect(await cli.ok('changes', 'purge')).toMatch(/^purged 0 changes; the log now starts after seq \d+\n$/);
    expect(await cli.json('changes', 'purge', '--as-of', inThirtyOneDays, '--json')).toEqual({ purged: expect.any(Number), purged_through: last });
    expect(await allChanges()).toEqual([]);
    const tail = await cli.run('changes', 'tail', '--table', String(tableId), '--after', '1');
    expect(tail).toMatchObject({ code: 0, stdout: '', stderr: `tabula changes tail: the changes up to seq ${last} were purged by retention (TABULA_CHANGES_DAYS); going on from the oldest change kept\n` });
    expect(await cli.run('trash', 'purge', '--as-of', 'yesterday')).toMatchObject({ code: 2, stderr: expect.stringContaining('--as-of must be an ISO date-time') });
  });

  it('the server purges on TABULA_PURGE_INTERVAL: a trashed record and a change made long ago go, recent ones stay', { timeout: 90_000 }, async () => {
    const [old, recent] = (await post(`/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'old' } }, { data: { name: 'recent' } }] })) as Array<{ id: number }>;
    await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [old.id, recent.id] });
    const changes = await allChanges();
    const oldChange = changes.find((change) => change.record_id === old.id && change.kind === 'record.created')!;
    await execute(cli, `update record_trash set deleted_at = '2000-01-01 00:00:00' where record_id = ${old.id}`);
    // Retention keeps the log contiguous: what goes is the run of old changes at its start.
    await execute(cli, `update changes set at = '2000-01-01 00:00:00' where seq <= ${oldChange.seq}`);
    const deadline = Date.now() + 30_000;
    const trashIds = async () => ((await post(`/api/table/${tableId}/records/trash`, { limit: 1000 })) as Array<{ id: number }>).map((entry) => entry.id);
    while (((await trashIds()).includes(old.id) || (await allChanges()).some((change) => change.seq === oldChange.seq)) && Date.now() < deadline) await wait(250);
    expect(await trashIds()).toEqual([recent.id]);
    const left = await allChanges();
    expect(left.map((change) => change.seq)).toEqual(changes.filter((change) => change.seq > oldChange.seq).map((change) => change.seq));
  });
});
