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
    const missing = 'Table 999 not found (no account of this database has a table with that id)';
    expect(await cli.run('export', '--table', '999')).toMatchObject({ code: 1, stderr: `tabula export: ${missing}\n` });
    fs.writeFileSync(file('any.csv'), 'name\nx\n');
    expect(await cli.run('import', '--table', '999', file('any.csv'))).toMatchObject({ code: 1, stdout: 'imported 0, updated 0, rejected 0; nothing written\n', stderr: `tabula import: ${missing}\n` });
  });

  it('import is all or nothing: rejected rows (with their lines) write nothing, --skip-rejected writes the others; --upsert updates instead of duplicating', { timeout: cliTestTimeout }, async () => {
    const tableId = await newTable('Imported');
    const csv = [
      'Name,amount,DONE,Status,Tags,Owner,Companies,Day,Extra',
      `one,1,yes,Open,"red, blue",${ownerEmail},"Acme, Inc., Globex",2026-01-02,x`,
      'two,abc,no,,,,,,x',
      'three,3,0,Nope,,,,,x',
      'four,4,1,Closed,blue,,2,,x',
    ].join('\n');
    fs.writeFileSync(file('in.csv'), `${csv}\n`);
    const strict = await cli.run('import', '--table', String(tableId), file('in.csv'), '--ignore-unknown');
    const rejectLines = ['line 3: amount: "abc" is not a number', expect.stringMatching(/^line 4: .*status: "Nope"/), ''];
    expect(strict.code).toBe(1);
    expect(strict.stdout.split('\n')).toEqual(['imported 0, updated 0, rejected 2; ignored columns: Extra (no such field); nothing written', ...rejectLines]);
    expect(strict.stderr).toContain('tabula import: 2 rows rejected, so nothing was written (an import is all or nothing): fix them and run the import again, or pass --skip-rejected to write the other 2\n');
    expect(await post(`/api/table/${tableId}/records/query`, {})).toEqual([]);

    const result = await cli.run('import', '--table', String(tableId), file('in.csv'), '--ignore-unknown', '--skip-rejected', '--rejects', file('rejects.csv'));
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout.split('\n')).toEqual([`imported 2, updated 0, rejected 2 (see ${file('rejects.csv')}); ignored columns: Extra (no such field)`, ...rejectLines]);
    expect(result.stderr).toContain('tabula import: 2 rows rejected and skipped (--skip-rejected); the others were written\n');
    const rejects = rowsOf(fs.readFileSync(file('rejects.csv'), 'utf8'));
    expect(rejects.map((row) => [row[0], row.at(-1)])).toEqual([
      ['Name', 'reason'],
      ['two', 'line 3: amount: "abc" is not a number'],
      ['three', expect.stringMatching(/^line 4: .*status: "Nope"/)],
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

  it('export puts a quote before text a spreadsheet would run (numbers stay numbers); import takes it off: the round trip is exact', { timeout: cliTestTimeout }, async () => {
    const formulaFields = [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'amount', name: 'Amount', type: 'number' },
      { id: 'day', name: 'Day', type: 'date' },
      { id: 'status', name: 'Status', type: 'select', options: [{ value: '-minus' }, { value: 'plain' }] },
    ];
    const source = (await post(`/api/space/${spaceId}/tables/create`, { name: 'Formulas', fields: formulaFields })).id as number;
    const texts = ['=1+1', '+x', '-x', '@x', '\tx', '\rx', "'=x", "''+y", "'plain", 'plain', '=HYPERLINK("https://example.com","click")', '', 'a=b'];
    await post(`/api/table/${source}/records/create_batch`, {
      records: texts.map((name, n) => ({ data: { name: name === '' ? null : name, amount: n === 0 ? -5 : n, day: '2026-03-04', status: n % 2 === 0 ? '-minus' : 'plain' } })),
    });
    const escaped = (await cli.run('export', '--table', String(source))).stdout;
    const cells = valuesOf(escaped);
    expect(cells[0]).toEqual(['name', 'amount', 'day', 'status']);
    expect(cells.slice(1).map((row) => row[0])).toEqual(["'=1+1", "'+x", "'-x", "'@x", "'\tx", "'\rx", "''=x", "'''+y", "'plain", 'plain', `'=HYPERLINK("https://example.com","click")`, '', 'a=b']);
    expect(cells[1].slice(1)).toEqual(['-5', '2026-03-04', "'-minus"]);
    expect(cells[2].slice(1)).toEqual(['1', '2026-03-04', 'plain']);
    fs.writeFileSync(file('formulas.csv'), escaped);
    const copy = (await post(`/api/space/${spaceId}/tables/create`, { name: 'Formulas copy', fields: formulaFields })).id as number;
    expect(await cli.ok('import', '--table', String(copy), file('formulas.csv'))).toBe(`imported ${texts.length}, updated 0, rejected 0\n`);
    const dataOf = async (tableId: number) => (await post(`/api/table/${tableId}/records/query`, { order_by: 'id' })).map((record: any) => record.data);
    const original = await dataOf(source);
    expect(await dataOf(copy)).toEqual(original);
    expect(original[0]).toEqual({ name: '=1+1', amount: -5, day: '2026-03-04', status: '-minus' });

    // --formulas raw on both sides: cells as stored, read as they are.
    const raw = (await cli.run('export', '--table', String(source), '--formulas', 'raw')).stdout;
    expect(valuesOf(raw).slice(1).map((row) => row[0])).toEqual(texts);
    fs.writeFileSync(file('formulas-raw.csv'), raw);
    const rawCopy = (await post(`/api/space/${spaceId}/tables/create`, { name: 'Formulas raw copy', fields: formulaFields })).id as number;
    await cli.ok('import', '--table', String(rawCopy), file('formulas-raw.csv'), '--formulas', 'raw');
    expect(await dataOf(rawCopy)).toEqual(original);
    expect(await cli.run('export', '--table', String(source), '--formulas', 'off')).toMatchObject({ code: 2, stderr: expect.stringContaining('--formulas must be escape or raw') });
  });

  describe('a malformed file leaves the table exactly as it was, with a summary and exit code 1', () => {
    let tableId: number;
    let before: unknown;
    const snapshot = () => post(`/api/table/${tableId}/records/query`, { order_by: 'id', limit: 1000 });
    const importFile = (name: string, text: string, ...flags: string[]) => {
      fs.writeFileSync(file(name), text);
      return cli.run('import', '--table', String(tableId), file(name), ...flags);
    };

    beforeAll(async () => {
      tableId = await newTable('Strict');
      await post(`/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'kept', amount: 1 } }, { data: { name: 'also kept', tags: ['red'] } }] });
      before = await snapshot();
    });

    it('a column that names no field: refused before anything is written, naming it and the fields', { timeout: cliTestTimeout }, async () => {
      const result = await importFile('unknown.csv', 'name,Bogus,amount\nx,y,1\n');
      expect(result).toMatchObject({
        code: 1,
        stdout: 'imported 0, updated 0, rejected 0; nothing written\n',
        stderr: 'tabula import: the header (line 1) names no field in column "Bogus"; the table\'s fields are name, amount, done, status, tags, owner, companies, day. Map a column with --map "Column=slug,…" or skip the unknown ones with --ignore-unknown; nothing was written\n',
      });
      expect(await snapshot()).toEqual(before);
      const none = await importFile('none.csv', 'Bogus\ny\n', '--ignore-unknown');
      expect(none).toMatchObject({ code: 1, stdout: 'imported 0, updated 0, rejected 0; nothing written\n', stderr: expect.stringContaining('no column of the header (line 1) names a field of the table') });
      expect(await importFile('empty.csv', '')).toMatchObject({ code: 1, stdout: 'imported 0, updated 0, rejected 0; nothing written\n', stderr: expect.stringContaining('the file is empty') });
      expect(await importFile('twice.csv', 'name,Name\na,b\n')).toMatchObject({ code: 1, stderr: expect.stringContaining('"name" and "Name" both go to name') });
      expect(await importFile('upsert.csv', 'amount\n1\n', '--upsert', 'name')).toMatchObject({ code: 1, stderr: expect.stringContaining('--upsert name: the header (line 1) has no column for this field') });
      expect(await snapshot()).toEqual(before);
    });

    it('rows wider or narrower than the header: rejected with their line numbers, nothing written', { timeout: cliTestTimeout }, async () => {
      const result = await importFile('width.csv', 'name,amount\na,1\nb\n"c\nstill c",3,extra\n\nd,4\n');
      expect(result.code).toBe(1);
      expect(result.stdout.split('\n')).toEqual(['imported 0, updated 0, rejected 2; nothing written', 'line 3: 1 cell where the header has 2', 'line 4: 3 cells where the header has 2', '']);
      expect(result.stderr).toContain('2 rows rejected, so nothing was written (an import is all or nothing): fix them and run the import again, or pass --skip-rejected to write the other 2');
      expect(await snapshot()).toEqual(before);
    });

    it('an unclosed quote at row 2,501 of 3,000: nothing written (2,000 rows were in batches); the fixed file then imports once', { timeout: cliTestTimeout }, async () => {
      const rows = Array.from({ length: 3000 }, (_, n) => `row ${n + 1},${n + 1}`);
      const broken = [...rows];
      broken[2500] = '"row 2501,2501';
      const result = await importFile('unclosed.csv', `name,amount\n${broken.join('\n')}\n`);
      expect(result).toMatchObject({
        code: 1,
        stdout: 'imported 0, updated 0, rejected 0; nothing written\n',
        stderr: expect.stringMatching(/^tabula import: line 2502: not valid CSV \(Quote Not Closed: .*\); nothing was written\n$/),
      });
      expect(await snapshot()).toEqual(before);
      expect(await importFile('fixed.csv', `name,amount\n${rows.join('\n')}\n`)).toMatchObject({ code: 0, stdout: 'imported 3000, updated 0, rejected 0\n' });
      expect((await post(`/api/table/${tableId}/records/count`, {})).count).toBe(3002);
    });
  });

  it('import appends one record.created change per imported record (and one record.updated per upserted one), by the command line', { timeout: cliTestTimeout }, async () => {
    const tableId = await newTable('Logged');
    fs.writeFileSync(file('logged.csv'), 'name,amount\nfirst,1\nsecond,2\nthird,3\n');
    expect(await cli.run('import', '--table', String(tableId), file('logged.csv'))).toMatchObject({ code: 0, stdout: 'imported 3, updated 0, rejected 0\n' });
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

  it('import holds nothing of the rows it wrote until its one commit: 60,000 rows within a 32 MB old generation', { timeout: cliTestTimeout }, async () => {
    const tableId = (await post(`/api/space/${spaceId}/tables/create`, { name: 'Many rows', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'amount', name: 'Amount', type: 'number' }] })).id as number;
    const rows = 60_000;
    const lines = Array.from({ length: rows }, (_, n) => `row ${n} ${'x'.repeat(60)},${n}`);
    fs.writeFileSync(file('many.csv'), `name,amount\n${lines.join('\n')}\n`);
    // Each batch's after-commit work kept its 1,000 records' values until the import committed:
    // about 400 bytes a row here (a million-record import of the bench table peaked at 1.7 GB),
    // past this bound at 40,000 rows. Without it, the same import needs about 24 MB.
    const imported = await runTabula(['import', '--table', String(tableId), file('many.csv'), '--data', cli.dataDir], { env: { ...cli.env, NODE_OPTIONS: '--max-old-space-size=32' }, timeoutMs: 55_000 });
    expect(imported, imported.stderr).toMatchObject({ code: 0, stdout: `imported ${rows}, updated 0, rejected 0\n` });
    expect((await post(`/api/table/${tableId}/records/count`, {})).count).toBe(rows);
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
