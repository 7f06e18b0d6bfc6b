import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, type Cli, cliTestTimeout, createCli, ensureBuilt, runTabula } from './run-cli.js';

const rowsOf = (text: string): string[][] => parse(text);
/** A CSV export without its system columns (id, created_at, updated_at): what an import carries over. */
const valuesOf = (text: string) => rowsOf(text).map((row) => row.slice(3));

describe('tabula export and import', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  let post: (url: string, body?: unknown) => Promise<any>;
  let spaceId: number;
  let ownerEmail: string;
  let targetId: number;
  let fields: unknown[];
  const file = (name: string) => path.join(cli.dataDir, name);

  beforeAll(async () => {
    cli = await createCli();
    ownerEmail = 'owner@example.com';
    const owner = await cli.json('init', '--email', ownerEmail, '--json');
    const server = await cli.startServer();
    post = async (url, body = {}) => {
      const response = await server.request('POST', url, { key: owner.api_key, body });
      expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(200);
      return response.body;
    };
    spaceId = (await post('/api/spaces/create', { name: 'CSV' })).id;
    targetId = (await post(`/api/space/${spaceId}/tables/create`, { name: 'Companies', fields: [{ id: 'label', name: 'Label', type: 'text' }] })).id;
    await post(`/api/table/${targetId}/records/create`, { data: { label: 'Acme, Inc.' } });
    await post(`/api/table/${targetId}/records/create`, { data: { label: 'Globex' } });
    fields = [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'amount', name: 'Amount', type: 'number' },
      { id: 'done', name: 'Done', type: 'checkbox' },
      { id: 'status', name: 'Status', type: 'select', options: [{ value: 'Open' }, { value: 'Closed' }] },
      { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'red' }, { value: 'blue' }] },
      { id: 'owner', name: 'Owner', type: 'user' },
      { id: 'companies', name: 'Companies', type: 'lookup', multiple: true, table_id: targetId },
      { id: 'day', name: 'Day', type: 'date' },
    ];
  }, 120_000);
  afterAll(() => cli?.close(), 60_000);

  const newTable = async (name: string) => (await post(`/api/space/${spaceId}/tables/create`, { name, fields })).id as number;

  it('export writes CSV to stdout, in records/ids order, and says how many on stderr', { timeout: cliTestTimeout }, async () => {
    const tableId = await newTable('Exported');
    await post(`/api/table/${tableId}/records/create`, { data: { name: 'b', amount: 2, done: true, tags: ['red', 'blue'], owner: ownerEmail, companies: [1, 2] } });
    await post(`/api/table/${tableId}/records/create`, { data: { name: 'a', amount: 1.5, status: 'Open' } });
    const result = await cli.run('export', '--table', String(tableId));
    expect(result).toMatchObject({ code: 0, stderr: 'exported 2 records\n' });
    expect(valuesOf(result.stdout)).toEqual([
      ['name', 'amount', 'done', 'status', 'tags', 'owner', 'companies', 'day'],
      ['b', '2', 'true', '', 'red, blue', ownerEmail, 'Acme, Inc., Globex', ''],
      ['a', '1.5', 'false', 'Open', '', '', '', ''],
    ]);
    const json = await cli.run('export', '--table', String(tableId), '--format', 'json', '--out', file('exported.json'));
    expect(json).toMatchObject({ code: 0, stdout: 'exported 2 records\n' });
    expect(JSON.parse(fs.readFileSync(file('exported.json'), 'utf8'))).toEqual(await post(`/api/table/${tableId}/records/query`, {}));
    expect(await cli.run('export', '--table', '999')).toMatchObject({ code: 1, stderr: expect.stringContaining('Invalid Table') });
  });

  it('import writes the good rows, rejects the bad ones with a reason; --upsert updates instead of duplicating', { timeout: cliTestTimeout }, async () => {
    const tableId = await newTable('Imported');
    const csv = [
      'Name,amount,DONE,Status,Tags,Owner,Companies,Day,Extra',
      `one,1,yes,Open,"red, blue",${ownerEmail},"Acme, Inc., Globex",2026-01-02,x`,
      'two,abc,no,,,,,,x',
      'three,3,0,Nope,,,,,x',
      'four,4,1,Closed,blue,,2,,x',
    ].join('\n');
    fs.writeFileSync(file('in.csv'), `${csv}\n`);
    const result = await cli.run('import', '--table', String(tableId), file('in.csv'), '--rejects', file('rejects.csv'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`imported 2, updated 0, rejected 2 (see ${file('rejects.csv')}); ignored columns: Extra (no such field)\n`);
    const rejects = rowsOf(fs.readFileSync(file('rejects.csv'), 'utf8'));
    expect(rejects.map((row) => [row[0], row.at(-1)])).toEqual([
      ['Name', 'reason'],
      ['two', 'amount: "abc" is not a number'],
      ['three', expect.stringMatching(/status/)],
    ]);
    const records = await post(`/api/table/${tableId}/records/query`, { order_by: 'id' });
    expect(records.map((record: any) => record.data)).toEqual([
      { name: 'one', amount: 1, done: true, status: 'Open', tags: ['red', 'blue'], owner: expect.objectContaining({ email: ownerEmail }), companies: [{ id: 1, title: 'Acme, Inc.' }, { id: 2, title: 'Globex' }], day: '2026-01-02' },
      { name: 'four', amount: 4, done: true, status: 'Closed', tags: ['blue'], owner: null, companies: [{ id: 2, title: 'Globex' }], day: null },
    ]);

    fs.writeFileSync(file('update.csv'), 'name,amount\none,10\nfour,40\nfive,5\n');
    const upsert = await cli.run('import', '--table', String(tableId), file('update.csv'), '--upsert', 'name');
    expect(upsert).toMatchObject({ code: 0, stdout: 'imported 1, updated 2, rejected 0\n' });
    const after = await post(`/api/table/${tableId}/records/query`, { order_by: 'id' });
    expect(after.map((record: any) => [record.id, record.data.name, record.data.amount])).toEqual([
      [records[0].id, 'one', 10],
      [records[1].id, 'four', 40],
      [expect.any(Number), 'five', 5],
    ]);
  });

  it('--map says which column goes to which field; every other column is ignored', { timeout: cliTestTimeout }, async () => {
    const tableId = await newTable('Mapped');
    fs.writeFileSync(file('mapped.csv'), 'Full name,Sum,name\nAda,3,ignored\n');
    const result = await cli.run('import', '--table', String(tableId), file('mapped.csv'), '--map', 'Full name=name,Sum=amount');
    expect(result).toMatchObject({ code: 0, stdout: 'imported 1, updated 0, rejected 0; ignored columns: name (not in --map)\n' });
    expect((await post(`/api/table/${tableId}/records/query`, {})).map((record: any) => [record.data.name, record.data.amount])).toEqual([['Ada', 3]]);
    expect(await cli.run('import', '--table', String(tableId), file('mapped.csv'), '--map', 'Sum=nope')).toMatchObject({ code: 2, stderr: expect.stringContaining('--map names "nope"') });
  });

  it('export, then import into an empty table, gives the same data', { timeout: cliTestTimeout }, async () => {
    const source = await newTable('Source');
    await post(`/api/table/${source}/records/create_batch`, {
      records: [
        { data: { name: 'x "quoted", with comma', amount: -2.25, done: true, status: 'Closed', tags: ['blue'], owner: ownerEmail, companies: [2, 1], day: '2025-12-31' } },
        { data: { name: 'line\nbreak' } },
        { data: {} },
      ],
    });
    await cli.ok('export', '--table', String(source), '--out', file('source.csv'));
    const copy = await newTable('Copy');
    expect(await cli.ok('import', '--table', String(copy), file('source.csv'))).toBe('imported 3, updated 0, rejected 0\n');
    const copied = (await cli.run('export', '--table', String(copy))).stdout;
    expect(valuesOf(copied)).toEqual(valuesOf(fs.readFileSync(file('source.csv'), 'utf8')));
  });

  it('import appends one record.created change per imported record (and one record.updated per upserted one), by the command line', { timeout: cliTestTimeout }, async () => {
    const tableId = await newTable('Logged');
    fs.writeFileSync(file('logged.csv'), 'name,amount\nfirst,1\nsecond,2\nbad,x\nthird,3\n');
    expect(await cli.run('import', '--table', String(tableId), file('logged.csv'))).toMatchObject({ code: 0, stdout: 'imported 3, updated 0, rejected 1 (rerun with --rejects FILE to keep them)\n' });
    const records = (await post(`/api/table/${tableId}/records/query`, { order_by: 'id' })) as Array<{ id: number; data: { name: string; amount: number } }>;
    const changes = (await post(`/api/table/${tableId}/changes/list`, { limit: 1000 })).changes as Array<{ kind: string; record_id: number; actor: { name: string }; after: Record<string, unknown> }>;
    expect(changes.map((change) => [change.kind, change.record_id, change.after.name, change.after.amount])).toEqual(records.map((record) => ['record.created', record.id, record.data.name, record.data.amount]));
    expect(new Set(changes.map((change) => change.actor.name))).toEqual(new Set(['CLI']));

    fs.writeFileSync(file('logged-upsert.csv'), 'name,amount\nfirst,10\nfourth,4\n');
    expect(await cli.run('import', '--table', String(tableId), file('logged-upsert.csv'), '--upsert', 'name')).toMatchObject({ code: 0, stdout: 'imported 1, updated 1, rejected 0\n' });
    const more = (await post(`/api/table/${tableId}/changes/list`, { after: (changes.at(-1) as unknown as { seq: number }).seq, limit: 1000 })).changes as Array<{ kind: string; record_id: number; fields: string[]; after: Record<string, unknown> }>;
    expect(more.map((change) => [change.kind, change.record_id === records[0].id, change.after.name ?? null, change.after.amount]).sort()).toEqual([
      ['record.created', false, 'fourth', 4],
      ['record.updated', true, null, 10],
    ]);
  });

  it('export runs with a young generation of 8 MB a semi-space, re-executed once; a size the operator set is kept; import and the rest keep V8\'s sizing', { timeout: cliTestTimeout }, async () => {
    const tableId = await newTable('Heap');
    // Preloaded through NODE_OPTIONS into both executions; only the one that finishes reports.
    const report = file('heap-report.mjs');
    fs.writeFileSync(report, "process.on('exit', () => process.stderr.write(`node flags: ${JSON.stringify(process.execArgv.filter((flag) => flag.startsWith('--max-semi')))}\\n`));\n");
    const run = (nodeOptions: string, ...args: string[]) => runTabula([...args, '--data', cli.dataDir], { env: { ...cli.env, NODE_OPTIONS: `--import ${report} ${nodeOptions}`.trim() } });
    const exported = await run('', 'export', '--table', String(tableId), '--out', file('heap.csv'));
    expect(exported).toMatchObject({ code: 0, stdout: 'exported 0 records\n', stderr: expect.stringMatching(/^node flags: \["--max-semi-space-size=8"\]\n$/) });
    const imported = await run('', 'import', '--table', String(tableId), file('heap.csv'));
    expect(imported).toMatchObject({ code: 0, stderr: expect.stringMatching(/^node flags: \[\]/) });
    expect(await run('--max-semi-space-size=2', 'export', '--table', String(tableId), '--out', file('heap.csv'))).toMatchObject({ code: 0, stderr: expect.stringMatching(/^node flags: \[\]/) });
    expect(await run('', 'keys', 'list')).toMatchObject({ code: 0, stderr: expect.stringMatching(/^node flags: \[\]/) });
  });
});
