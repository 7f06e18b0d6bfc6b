import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { createRandom } from '../random.js';
import { physicalColumns } from '../schema-inspection.js';

/**
 * Search answers computed here from the records themselves: a record matches when every
 * lower-cased term is part of the lower-cased value of one of its text, longtext, email, url or
 * select fields. Checked through every path the search takes (the index and the short-term
 * scan; a page stopped at its first matches, sorted, filtered, counted), after creates,
 * imports, updates and deletes: the search text lives beside the record, not in it.
 */
describe('records search text beside the record', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;
  const searchable = ['heading', 'body', 'mail', 'site', 'status', 'tags'];
  const words = ['ka', 'lo', 'dor', 'wyn', 'straße', 'école', 'İz', 'σοφός', 'ΣΟΦΟΣ', '日本', '🙂x', '50%', 'a_b', 'Kappa'];
  const probes = ['dor', 'ka', 'k', 'o', 'straße', 'STRASSE', 'école', 'ÉCOLE', 'İz', 'iz', 'σοφός', 'ΣΟΦΟΣ', '日本', '🙂', '%', '_', 'a_b', 'dor ka', 'ka lo wyn', 'example', 'open', 'red blue', 'zzz', 'kappa dorwyn'];

  const post = (path: string, body: unknown) => call(ctx, 'POST', path, { key: world.accountKey, body });

  /** Deterministic values (mulberry32): the same records on every run and engine. */
  function makeData(seed: number, count: number): Array<Record<string, unknown>> {
    const next = createRandom(seed);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const phrase = (n: number) => Array.from({ length: n }, () => pick(words) + pick(words)).join(' ');
    return Array.from({ length: count }, (_, i) => {
      const data: Record<string, unknown> = { amount: Math.floor(next() * 1000) };
      if (i % 9 === 4) return data; // no searchable text at all
      if (next() < 0.8) data.heading = phrase(2);
      if (next() < 0.6) data.body = phrase(5);
      if (next() < 0.3) data.mail = `${pick(['ka', 'dor', 'lo'])}${i}@example.com`;
      if (next() < 0.3) data.site = `https://${pick(['wyn', 'ka'])}.example/${i}`;
      if (next() < 0.7) data.status = pick(['Open', 'Closed', 'Überfällig']);
      if (next() < 0.5) data.tags = ['red', 'blue'].filter(() => next() < 0.6);
      return data;
    });
  }

  type Row = { id: number; data: Record<string, unknown> };
  async function allRecords(): Promise<Row[]> {
    const response = await post(`/api/table/${tableId}/records/query`, { limit: 1000 });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  function textOf(record: Row): string {
    const parts = searchable.flatMap((slug) => {
      const value = record.data[slug];
      if (value === null || value === undefined) return [];
      return Array.isArray(value) ? value.map(String) : [String(value)];
    });
    return parts.join('\n').toLowerCase();
  }

  const matches = (record: Row, probe: string) => {
    const text = textOf(record);
    return probe.toLowerCase().split(/\s+/).every((term) => text.includes(term));
  };

  async function query(body: Record<string, unknown>): Promise<number[]> {
    const response = await post(`/api/table/${tableId}/records/query`, body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.map((record: { id: number }) => record.id);
  }

  /** Every probe, through every path, against the answer computed from the records. */
  async function expectSearchAnswers(): Promise<void> {
    const records = await allRecords();
    expect(records.length).toBeGreaterThan(20);
    const byAmountDesc = [...records].sort((a, b) => Number(b.data.amount) - Number(a.data.amount) || a.id - b.id);
    let found = 0;
    for (const probe of probes) {
      const ids = records.filter((r) => matches(r, probe)).map((r) => r.id);
      found += ids.length;
      expect(await query({ search: probe, limit: 1000 }), probe).toEqual(ids);
      expect(await query({ search: probe, limit: 3, offset: 2 }), `${probe} paged`).toEqual(ids.slice(2, 5));
      expect(await query({ search: probe, limit: 1000, order_by: 'amount', order_dir: 'D' }), `${probe} sorted`).toEqual(byAmountDesc.filter((r) => matches(r, probe)).map((r) => r.id));
      expect(await query({ search: probe, limit: 1000, where: { status: 'Open' } }), `${probe} filtered`).toEqual(records.filter((r) => r.data.status === 'Open' && matches(r, probe)).map((r) => r.id));
      const count = await post(`/api/table/${tableId}/records/count`, { search: probe });
      expect(count.body.count, `${probe} counted`).toBe(ids.length);
      // Counted from the search table alone, and through the record table with a filter.
      const filteredCount = await post(`/api/table/${tableId}/records/count`, { search: probe, where: { status: 'Open' } });
      expect(filteredCount.body.count, `${probe} counted with a filter`).toBe(records.filter((r) => r.data.status === 'Open' && matches(r, probe)).length);
    }
    // The probes find something, and not everything.
    expect(found).toBeGreaterThan(probes.length);
    expect(found).toBeLessThan(probes.length * records.length);
  }

  /** Rows of the search table: one per record that has searchable text, none for others or deleted ones. */
  async function searchTableIds(): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(`rec_${tableId}_search`)} order by id`.execute(ctx.container.database.db);
    return rows.map((row) => Number(row.id));
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Search text');
    const table = await createTable(ctx, world, space.id, {
      name: 'Texts',
      fields: [
        { id: 'heading', name: 'Heading', type: 'text' },
        { id: 'body', name: 'Body', type: 'longtext' },
        { id: 'mail', name: 'Mail', type: 'email' },
        { id: 'site', name: 'Site', type: 'url' },
        { id: 'status', name: 'Status', type: 'select', options: [{ value: 'Open' }, { value: 'Closed' }, { value: 'Überfällig' }] },
        { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'red' }, { value: 'blue' }] },
        { id: 'amount', name: 'Amount', type: 'number' },
      ],
    });
    tableId = table.id;
    for (const data of makeData(1, 40)) {
      const response = await post(`/api/table/${tableId}/records/create`, { data });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
  });

  it('the record table has no copy of the search text', async () => {
    const columns = Object.keys(await physicalColumns(ctx, tableId));
    expect(columns).toContain('id');
    expect(columns.filter((name) => name.includes('search'))).toEqual([]);
  });

  it('created records: every search answers what the records hold', async () => {
    await expectSearchAnswers();
  });

  it('imported records are searched alike, and only records with text have a row in the search table', async () => {
    const actor = await ctx.container.services.keys.authenticateKey(world.accountKey, '127.0.0.1');
    expect(await ctx.container.services.records.importRecords(actor, tableId, makeData(2, 30))).toBe(30);
    await expectSearchAnswers();
    const records = await allRecords();
    expect(await searchTableIds()).toEqual(records.filter((r) => textOf(r) !== '').map((r) => r.id));
  });

  it('after updates (a searchable field changed, all of them emptied, only a non-searchable one) and deletes, search follows', async () => {
    const records = await allRecords();
    const [changed, emptied, untouched, deleted, ...rest] = records.filter((r) => textOf(r) !== '');
    const update = (id: number, data: Record<string, unknown>) => post(`/api/table/${tableId}/record/${id}/update`, { data });
    expect((await update(changed.id, { heading: 'Kappa dorwyn 日本' })).status).toBe(200);
    expect((await update(emptied.id, { heading: null, body: null, mail: null, site: null, status: null, tags: [] })).status).toBe(200);
    expect((await update(untouched.id, { amount: 5 })).status).toBe(200);
    expect((await post(`/api/table/${tableId}/record/${deleted.id}/delete`, {})).status).toBe(200);
    expect((await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [rest[0].id, rest[1].id] })).status).toBe(200);
    expect(await query({ search: 'kappa dorwyn', limit: 100 })).toContain(changed.id);
    await expectSearchAnswers();
    const after = await allRecords();
    const ids = await searchTableIds();
    expect(ids).not.toContain(emptied.id);
    expect(ids).not.toContain(deleted.id);
    expect(ids).toContain(untouched.id);
    expect(ids).toEqual(after.filter((r) => textOf(r) !== '').map((r) => r.id));
  });

  it('after a searchable field is deleted, its text is no longer found', async () => {
    expect((await post(`/api/table/${tableId}/field/body/delete`, {})).status).toBe(200);
    searchable.splice(searchable.indexOf('body'), 1);
    await expectSearchAnswers();
  });
});
