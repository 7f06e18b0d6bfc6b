import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

describe('records search', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;
  /** Record ids by label. */
  const rec: Record<string, number> = {};

  const post = (path: string, body: unknown) => call(ctx, 'POST', path, { key: world.accountKey, body });
  async function search(text: unknown, extra: Record<string, unknown> = {}): Promise<string[]> {
    const response = await post(`/api/table/${tableId}/records/query`, { search: text, limit: 1000, ...extra });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.map((record: { id: number }) => Object.keys(rec).find((label) => rec[label] === record.id) ?? `#${record.id}`);
  }
  const create = async (label: string, data: Record<string, unknown>) => {
    const response = await post(`/api/table/${tableId}/records/create`, { data });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    rec[label] = response.body.id;
  };

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Search');
    const options = [{ value: 'Open' }, { value: 'Closed' }, { value: 'Überfällig' }];
    const table = await createTable(ctx, world, space.id, {
      name: 'Docs',
      fields: [
        { id: 'heading', name: 'Heading', type: 'text' },
        { id: 'body', name: 'Body', type: 'longtext' },
        { id: 'mail', name: 'Mail', type: 'email' },
        { id: 'site', name: 'Site', type: 'url' },
        { id: 'status', name: 'Status', type: 'select', options },
        { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'red' }, { value: 'blue' }] },
        { id: 'amount', name: 'Amount', type: 'number' },
        { id: 'day', name: 'Day', type: 'date' },
        { id: 'done', name: 'Done', type: 'checkbox' },
      ],
    });
    tableId = table.id;
    await create('fox', { heading: 'The Quick Brown Fox', body: 'jumps over the lazy dog', status: 'Open', amount: 12345, day: '2024-01-15' });
    await create('percent', { heading: '100% sure', body: 'snake_case_name', tags: ['red', 'blue'] });
    await create('nopercent', { heading: '1000 sure', body: 'snakeXcaseYname' });
    await create('quotes', { heading: 'He said "hello"', body: "it's fine", mail: 'quote@example.com' });
    await create('umlaut', { heading: 'Ärger im Büro', status: 'Überfällig', site: 'https://example.org/straße' });
    await create('split', { heading: 'foo', body: 'bar', mail: 'someone@mail.test', site: 'https://split.example' });
    await create('empty', {});
    await create('numbers', { amount: 42, day: '2023-07-04', done: true });
  });

  it('matches a term anywhere in any text-like, select, email or url field, case-insensitively', async () => {
    expect(await search('quick')).toEqual(['fox']);
    expect(await search('QUICK')).toEqual(['fox']);
    expect(await search('LaZy')).toEqual(['fox']);
    expect(await search('open')).toEqual(['fox']);
    expect(await search('BLUE')).toEqual(['percent']);
    expect(await search('quote@EXAMPLE')).toEqual(['quotes']);
    expect(await search('split.example')).toEqual(['split']);
    expect(await search('mail.test')).toEqual(['split']);
  });

  it('requires every whitespace-separated term, each in some field', async () => {
    expect(await search('quick dog')).toEqual(['fox']);
    expect(await search('  dog \t\n quick  ')).toEqual(['fox']);
    expect(await search('foo bar')).toEqual(['split']);
    expect(await search('quick cat')).toEqual([]);
    expect(await search('sure')).toEqual(['percent', 'nopercent']);
    expect(await search('sure 100%')).toEqual(['percent']);
  });

  it('never matches a term spanning two fields or two select values', async () => {
    expect(await search('foobar')).toEqual([]);
    expect(await search('oba')).toEqual([]);
    expect(await search('ob')).toEqual([]);
    expect(await search('redblue')).toEqual([]);
    expect(await search('dbl')).toEqual([]);
    expect(await search('foxjumps')).toEqual([]);
  });

  it('treats % and _ literally', async () => {
    expect(await search('%')).toEqual(['percent']);
    expect(await search('0%')).toEqual(['percent']);
    expect(await search('100%')).toEqual(['percent']);
    expect(await search('e_c')).toEqual(['percent']);
    expect(await search('_')).toEqual(['percent']);
    expect(await search('snake_case_name')).toEqual(['percent']);
    expect(await search('%%')).toEqual([]);
    expect(await search('__')).toEqual([]);
  });

  it('handles double and single quotes in terms', async () => {
    expect(await search('"hello"')).toEqual(['quotes']);
    expect(await search('"hel')).toEqual(['quotes']);
    expect(await search('"')).toEqual(['quotes']);
    expect(await search("it's")).toEqual(['quotes']);
    expect(await search("'")).toEqual(['quotes']);
    expect(await search('"""')).toEqual([]);
    expect(await search("'; drop table users; --")).toEqual([]);
    expect(await search('hello" OR "x')).toEqual([]);
  });

  it('folds non-ASCII letters: Ärger is found by ärg and by ÄRG', async () => {
    expect(await search('ärg')).toEqual(['umlaut']);
    expect(await search('ÄRG')).toEqual(['umlaut']);
    expect(await search('ÄRGER')).toEqual(['umlaut']);
    expect(await search('bÜrO')).toEqual(['umlaut']);
    expect(await search('überfällig')).toEqual(['umlaut']);
    expect(await search('STRASSE')).toEqual([]);
    expect(await search('straße')).toEqual(['umlaut']);
    expect(await search('arg')).toEqual([]);
  });

  it('finds terms shorter than three characters', async () => {
    expect(await search('ä')).toEqual(['umlaut']);
    expect(await search('Fo')).toEqual(['fox', 'split']);
    expect(await search('x')).toEqual(['fox', 'nopercent', 'quotes', 'umlaut', 'split']);
    expect(await search('ox ju')).toEqual(['fox']);
    expect(await search('q z')).toEqual(['fox']);
    expect(await search('he fine')).toEqual(['quotes']);
  });

  it('does not look into number, date or checkbox values', async () => {
    expect(await search('12345')).toEqual([]);
    expect(await search('42')).toEqual([]);
    expect(await search('2024-01-15')).toEqual([]);
    expect(await search('2023')).toEqual([]);
    expect(await search('true')).toEqual([]);
  });

  it('combines with where and filters (AND)', async () => {
    expect(await search('sure', { where: { tags: 'red' } })).toEqual(['percent']);
    expect(await search('sure', { filters: [{ column: 'heading', compare: 'SW', value: '1000' }] })).toEqual(['nopercent']);
    expect(await search('o', { filters: [{ column: 'status', compare: '=', value: 'Open' }, { column: 'heading', compare: '=', value: 'foo', connector: 'OR' }] })).toEqual(['fox', 'split']);
    expect(await search('quick', { where: { amount: ['>', 20000] } })).toEqual([]);
    // Sorted by lower-cased UTF-8 bytes: ä sorts after every ASCII letter.
    expect(await search('e', { order_by: 'heading', order_dir: 'D', limit: 2 })).toEqual(['umlaut', 'fox']);
  });

  it('a blank search restricts nothing', async () => {
    expect((await search('')).length).toBe(8);
    expect((await search('   ')).length).toBe(8);
  });

  it('a non-string search, NUL characters and more than 100 distinct terms are 400 Invalid parameters', async () => {
    for (const value of [1, true, ['a'], { a: 1 }, null]) {
      const response = await post(`/api/table/${tableId}/records/query`, { search: value });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/^Invalid parameters: search/);
    }
    const nul = await post(`/api/table/${tableId}/records/query`, { search: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.body.error.message).toBe('Invalid parameters: search must not contain NUL characters');
    const many = Array.from({ length: 101 }, (_, i) => `term${i}`).join(' ');
    expect((await post(`/api/table/${tableId}/records/query`, { search: many })).status).toBe(400);
    // Repeated terms count once.
    expect(await search(Array.from({ length: 300 }, () => 'quick').join(' '))).toEqual(['fox']);
  });

  it('follows record updates and deletes', async () => {
    await create('changing', { heading: 'Zanzibar original', body: 'kept body' });
    expect(await search('zanzibar')).toEqual(['changing']);
    let response = await post(`/api/table/${tableId}/record/${rec.changing}/update`, { data: { heading: 'Timbuktu replaced' } });
    expect(response.status).toBe(200);
    expect(await search('zanzibar')).toEqual([]);
    expect(await search('timbuktu')).toEqual(['changing']);
    // Fields not in the update stay searchable.
    expect(await search('kept body')).toEqual(['changing']);
    // Updating a non-searchable field keeps the text.
    response = await post(`/api/table/${tableId}/record/${rec.changing}/update`, { data: { amount: 7 } });
    expect(await search('timbuktu')).toEqual(['changing']);
    response = await post(`/api/table/${tableId}/record/${rec.changing}/update`, { data: { heading: null, body: null } });
    expect(await search('timbuktu')).toEqual([]);
    expect(await search('kept')).toEqual([]);
    await post(`/api/table/${tableId}/record/${rec.changing}/update`, { data: { heading: 'Zanzibar again' } });
    expect(await search('zanzibar')).toEqual(['changing']);
    response = await post(`/api/table/${tableId}/record/${rec.changing}/delete`, {});
    expect(response.status).toBe(200);
    expect(await search('zanzibar')).toEqual([]);
    expect(await search('zan')).toEqual([]);
    expect(await search('za')).toEqual([]);
  });

  it('finds a term only where it stands whole, not where its pieces are scattered', async () => {
    // The SQLite index keeps which records hold each trigram, not where: both records below
    // hold every trigram of the terms searched, and only the first holds them in a row.
    const space = await createSpace(ctx, world, 'Scattered');
    const table = await createTable(ctx, world, space.id, { name: 'Notes', fields: [{ id: 'note', name: 'Note', type: 'text' }] });
    const long = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const ids: Record<string, number> = {};
    for (const [label, note] of Object.entries({ whole: `the dormitory ${long}`, scattered: `odor normal ${long.slice(0, -1)}_${long.slice(-4)}` })) {
      ids[label] = (await post(`/api/table/${table.id}/records/create`, { data: { note } })).body.id;
    }
    const found = async (body: Record<string, unknown>) => (await post(`/api/table/${table.id}/records/ids`, body)).body;
    for (const extra of [{}, { limit: 10 }, { order_by: 'note' }]) {
      expect(await found({ search: 'dorm', ...extra })).toEqual([ids.whole]);
      expect(await found({ search: long, ...extra })).toEqual([ids.whole]);
    }
    expect((await post(`/api/table/${table.id}/records/count`, { search: 'dorm' })).body.count).toBe(1);
  });

  it('applies to count and ids as well', async () => {
    const count = await post(`/api/table/${tableId}/records/count`, { search: 'sure' });
    expect(count.body).toEqual({ count: 2, total: 8, total_approx: false, restricted: true });
    const ids = await post(`/api/table/${tableId}/records/ids`, { search: 'sure', order_by: 'heading', order_dir: 'D' });
    expect(ids.body).toEqual([rec.nopercent, rec.percent]);
  });

  it('pages of search results are exact slices of all matches, whatever the order or extra conditions', async () => {
    // A page of a search alone in id order lets SQLite's FTS5 stop at limit + offset matches;
    // every other combination takes all matches. Both must page identically.
    const labels: string[] = [];
    for (let n = 0; n < 30; n += 1) {
      const label = `pg${n}`;
      await create(label, { heading: `pagination sample ${n}`, body: n % 3 === 0 ? 'xy marker' : 'plain', amount: n % 4 });
      labels.push(label);
    }
    // Deleted and re-worded records leave FTS5 delete entries among the matches.
    for (const label of ['pg4', 'pg11']) await post(`/api/table/${tableId}/record/${rec[label]}/delete`, {});
    await post(`/api/table/${tableId}/record/${rec.pg7}/update`, { data: { heading: 'no longer matching' } });
    const label = (id: number) => Object.keys(rec).find((key) => rec[key] === id);
    const bodies: Record<string, unknown>[] = [
      { search: 'pagination' },
      { search: 'pagination', order_by: 'id', order_dir: 'A' },
      { search: 'pagination', order_by: 'id', order_dir: 'D' },
      { search: 'pagination', order_by: 'amount', order_dir: 'A' },
      { search: 'pagination', where: { amount: ['>', 0] } },
      { search: 'pagination xy' },
      { search: 'sample pagination' },
    ];
    for (const body of bodies) {
      const all = await post(`/api/table/${tableId}/records/ids`, body);
      expect(all.status).toBe(200);
      for (const [limit, offset] of [[5, 0], [5, 5], [7, 20], [10, 25], [1000, 0], [3, 100]]) {
        const page = await search(body.search, { ...body, limit, offset });
        expect(page, JSON.stringify({ body, limit, offset })).toEqual((all.body as number[]).slice(offset, offset + limit).map(label));
      }
    }
    const everything = await post(`/api/table/${tableId}/records/ids`, { search: 'pagination' });
    expect((everything.body as number[]).map(label)).toEqual(labels.filter((l) => !['pg4', 'pg11', 'pg7'].includes(l)));
  });
});
