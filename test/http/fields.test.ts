import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { fieldIds, physicalColumns } from '../schema-inspection.js';


const recordDb = (ctx: TestContext) => ctx.container.database.db as unknown as Kysely<any>;

/** A JSON column reads back as text on SQLite and parsed on PostgreSQL. */
const parseJson = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

describe('fields', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Fields')).id;
  });

  const post = (url: string, body?: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const readTable = async (tableId: number) => (await call(ctx, 'GET', `/api/table/${tableId}/get`, { key: world.accountKey })).body;
  const slugsOf = (table: { fields: Array<{ id: string }> }) => table.fields.map((f) => f.id);
  const newTable = (fields: unknown[] = [{ name: 'Headline', type: 'text' }]) => createTable(ctx, world, spaceId, { name: 'T', fields });
  const addField = (tableId: number, definition: unknown) => post(`/api/table/${tableId}/fields/create`, definition);

  /** A rejected request answers 400 naming the problem and leaves the table exactly as it was. */
  async function expectRejected(tableId: number, send: () => Promise<{ status: number; body: any }>, message: string | RegExp) {
    const before = await readTable(tableId);
    const columnsBefore = await physicalColumns(ctx, tableId);
    const response = await send();
    expect(response.status).toBe(400);
    expect(response.body.error.code).toMatch(/^invalid_/);
    if (typeof message === 'string') expect(response.body.error.message).toContain(message);
    else expect(response.body.error.message).toMatch(message);
    expect(await readTable(tableId)).toEqual(before);
    expect(await physicalColumns(ctx, tableId)).toEqual(columnsBefore);
    return response;
  }

  describe('slugs', () => {
    it.each([
      ['Email Address', 'email_address'],
      ['Crème Brûlée', 'creme_brulee'],
      ['Ünïcödé Naïve', 'unicode_naive'],
      ['2nd Place', 'f_2nd_place'],
      ['Price (€)', 'price'],
      ['日本語', 'field'],
    ])('makes the slug of %j %j', async (name, slug) => {
      const table = await newTable();
      const response = await addField(table.id, { name, type: 'text' });
      expect(response.status).toBe(200);
      expect(response.body.fields.at(-1)).toMatchObject({ id: slug, name });
    });

    it('de-duplicates generated slugs: name, name_2, name_3', async () => {
      const table = await newTable([]);
      await addField(table.id, { name: 'Name', type: 'text' });
      await addField(table.id, { name: 'name', type: 'text' });
      const response = await addField(table.id, { name: 'NAME', type: 'text' });
      expect(slugsOf(response.body)).toEqual(['name', 'name_2', 'name_3']);
    });

    it.each([
      ['Title', 'title_2'],
      ['ID', 'id_2'],
      ['Created at', 'created_at_2'],
      ['Updated At', 'updated_at_2'],
    ])('steps a generated slug around the reserved one: %j → %j', async (name, slug) => {
      const table = await newTable();
      const response = await addField(table.id, { name, type: 'text' });
      expect(response.body.fields.at(-1).id).toBe(slug);
    });

    it('keeps a valid explicit id', async () => {
      const table = await newTable();
      const response = await addField(table.id, { id: `x${'y'.repeat(62)}`, name: 'Long', type: 'text' });
      expect(response.status).toBe(200);
      expect(response.body.fields.at(-1).id).toBe(`x${'y'.repeat(62)}`);
    });

    it.each(['Email', '1st', '_x', 'a-b', 'a b', 'é', '', `x${'y'.repeat(63)}`])('rejects the explicit id %j', async (id) => {
      const table = await newTable();
      await expectRejected(table.id, () => addField(table.id, { id, name: 'X', type: 'text' }), 'Invalid field definition: id must match ^[a-z][a-z0-9_]{0,62}$');
    });

    it.each([5, null, true, ['a']])('rejects the non-string explicit id %j', async (id) => {
      const table = await newTable();
      await expectRejected(table.id, () => addField(table.id, { id, name: 'X', type: 'text' }), 'id must match');
    });

    it.each(['id', 'title', 'created_at', 'updated_at'])('rejects the reserved explicit id %j', async (id) => {
      const table = await newTable();
      await expectRejected(table.id, () => addField(table.id, { id, name: 'X', type: 'text' }), `Invalid field definition: id "${id}" is reserved`);
    });

    it('rejects an explicit id the table already uses', async () => {
      const table = await newTable();
      await expectRejected(table.id, () => addField(table.id, { id: 'headline', name: 'Again', type: 'text' }), 'Invalid field definition: id "headline" is already used in this table');
    });
  });

  describe('definition validation', () => {
    let tableId: number;
    let foreignTableId: number;
    let sameAccountOtherSpaceTableId: number;

    beforeAll(async () => {
      tableId = (await newTable()).id;
      const stranger = await createAccount(ctx);
      const strangerSpace = await createSpace(ctx, stranger, 'Theirs');
      foreignTableId = (await createTable(ctx, stranger, strangerSpace.id, { name: 'Theirs', fields: [{ name: 'Name', type: 'text' }] })).id;
      const otherSpace = await createSpace(ctx, world, 'Other space');
      sameAccountOtherSpaceTableId = (await createTable(ctx, world, otherSpace.id, { name: 'Elsewhere', fields: [{ name: 'Name', type: 'text' }] })).id;
    });

    it.each([
      [{ name: 'X', type: 'text', options: [{ value: 'a' }] }, 'options does not apply to text fields'],
      [{ name: 'X', type: 'text', decimals: 2 }, 'decimals does not apply to text fields'],
      [{ name: 'X', type: 'select', decimals: 2 }, 'decimals does not apply to select fields'],
      [{ name: 'X', type: 'number', table_id: 1 }, 'table_id does not apply to number fields'],
      [{ name: 'X', type: 'number', image_only: true }, 'image_only does not apply to number fields'],
      [{ name: 'X', type: 'lookup', table_id: 1, options: [] }, 'options does not apply to lookup fields'],
      [{ name: 'X', type: 'file', decimals: null }, 'decimals does not apply to file fields'],
      [{ name: 'X', type: 'checkbox', image_only: false }, 'image_only does not apply to checkbox fields'],
    ])('rejects a type-specific key on the wrong type: %j', async (definition, message) => {
      await expectRejected(tableId, () => addField(tableId, definition), message);
    });

    it('rejects a lookup to a table of another account, as if it did not exist', async () => {
      const response = await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'lookup', table_id: foreignTableId }), `table_id ${foreignTableId} is not a table of this account`);
      expect(response.body.error.code).toBe('invalid_field_definition');
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'lookup', table_id: 2_000_000_000 }), 'table_id 2000000000 is not a table of this account');
    });

    it.each([0, -1, 2_147_483_648, 1e20])('rejects a lookup to the impossible table id %j with 400, not 500', async (target) => {
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'lookup', table_id: target }), 'is not a table of this account');
    });

    it.each([undefined, '1', 1.5, null])('rejects a lookup whose table_id is %j', async (target) => {
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'lookup', table_id: target }), 'table_id is required for lookup fields');
    });

    it('accepts a lookup to a table of the same account in another space, and to its own table', async () => {
      const elsewhere = await addField(tableId, { id: 'elsewhere', name: 'Elsewhere', type: 'lookup', table_id: sameAccountOtherSpaceTableId });
      expect(elsewhere.status).toBe(200);
      const self = await addField(tableId, { id: 'parent', name: 'Parent', type: 'lookup', table_id: tableId });
      expect(self.body.fields.at(-1)).toMatchObject({ id: 'parent', type: 'lookup', table_id: tableId, multiple: false });
    });

    it.each([
      [{ options: 'a,b' }, 'options must be an array'],
      [{ options: { value: 'a' } }, 'options must be an array'],
      [{ options: ['a'] }, 'options[0] must be an object'],
      [{ options: [{ value: 'a' }, { value: 'a' }] }, 'duplicate option "a"'],
      [{ options: [{ value: 'a,b' }] }, 'options[0].value must not contain a comma'],
      [{ options: [{ value: 'a' }, { value: 'b', label: 'B' }] }, 'options[1] has unknown property "label"'],
      [{ options: [{ value: '' }] }, 'options[0].value must be a non-empty string'],
      [{ options: [{ value: 5 }] }, 'options[0].value must be a non-empty string'],
      [{ options: [{ value: 'a', color: 7 }] }, 'options[0].color must be a color string'],
      [{ options: [{ value: 'a\u0000' }] }, 'options[0].value must not contain NUL characters'],
    ])('rejects select options %j', async (settings, message) => {
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'select', ...settings }), message);
    });

    it('accepts a select without options', async () => {
      const response = await addField(tableId, { id: 'bare_select', name: 'Bare', type: 'select' });
      expect(response.body.fields.at(-1)).toMatchObject({ id: 'bare_select', options: [], multiple: false });
    });

    it.each([11, -1, 1.5, '2', true, 100])('rejects decimals %j', async (decimals) => {
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'number', decimals }), 'decimals must be an integer from 0 to 10, or null');
    });

    it.each([0, 10, null])('accepts decimals %j', async (decimals) => {
      const response = await addField(tableId, { name: `Decimals ${decimals}`, type: 'number', decimals });
      expect(response.status).toBe(200);
      expect(response.body.fields.at(-1).decimals).toBe(decimals);
    });

    it.each(['text', 'longtext', 'number', 'checkbox', 'email', 'url', 'date', 'datetime', 'time'])('rejects multiple on a %s field', async (type) => {
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type, multiple: true }), `${type} fields cannot be multiple`);
    });

    it('rejects multiple: false on a file field, which is always multiple', async () => {
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'file', multiple: false }), 'file fields are always multiple');
    });

    it('rejects a non-boolean multiple and a non-boolean image_only', async () => {
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'user', multiple: 'yes' }), 'multiple must be a boolean');
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'file', image_only: 1 }), 'image_only must be a boolean');
    });

    it.each([
      [{ editable_by: 'everyone' }, 'editable_by must be members, admins or none'],
      [{ editable_by: 'Admins' }, 'editable_by must be members, admins or none'],
      [{ editable_by: null }, 'editable_by must be members, admins or none'],
      [{ hidden: 'never' }, 'hidden must be "always" or null'],
      [{ hidden: true }, 'hidden must be "always" or null'],
      [{ required: 'true' }, 'required must be a boolean'],
      [{ required: 1 }, 'required must be a boolean'],
    ])('rejects the common option %j', async (options, message) => {
      await expectRejected(tableId, () => addField(tableId, { name: 'X', type: 'text', ...options }), message);
    });

    it.each([
      [{ editable_by: 'members', hidden: null, required: false }],
      [{ editable_by: 'admins', hidden: 'always', required: true }],
      [{ editable_by: 'none' }],
    ])('stores and shows the common options %j', async (options) => {
      const response = await addField(tableId, { name: 'Common', type: 'text', ...options });
      const defaults = { editable_by: 'members', hidden: null, required: false };
      expect(response.body.fields.at(-1)).toMatchObject({ ...defaults, ...options });
    });

    it.each([
      [{ type: 'text' }, 'name must be a string'],
      [{ name: 5, type: 'text' }, 'name must be a string'],
      [{ name: '', type: 'text' }, 'name must be 1 to 200 characters'],
      [{ name: 'x'.repeat(201), type: 'text' }, 'name must be 1 to 200 characters'],
      [{ name: 'X' }, 'type is required'],
      [{ name: 'X', type: 'string' }, 'Invalid field type: "string"'],
      [{ name: 'X', type: 'text', default: 'x' }, 'unknown property "default"'],
    ])('rejects the definition %j', async (definition, message) => {
      await expectRejected(tableId, () => addField(tableId, definition), message);
    });

    it('rejects a body that is not an object', async () => {
      const response = await addField(tableId, [{ name: 'X', type: 'text' }]);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/body must be object/);
    });
  });

  describe('create', () => {
    it('appends the field, answers the whole table and adds a physical column', async () => {
      const table = await newTable();
      const before = await physicalColumns(ctx, table.id);
      const response = await addField(table.id, { name: 'Tags', type: 'select', multiple: true, options: [{ value: 'a' }] });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: table.id, name: 'T', space_id: spaceId, title_field: 'headline', indexes: [] });
      expect(slugsOf(response.body)).toEqual(['headline', 'tags']);
      const ids = await fieldIds(ctx, table.id);
      const after = await physicalColumns(ctx, table.id);
      expect(after).toEqual({ ...before, [`f_${ids.tags}`]: ctx.container.database.dialect.jsonType });
    });

    it('answers 404 for a table that does not exist', async () => {
      const response = await addField(2_147_483_000, { name: 'X', type: 'text' });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('table_not_found');
    });
  });

  describe('update', () => {
    it('renames the slug without touching the physical column or its data', async () => {
      const table = await newTable([
        { name: 'Headline', type: 'text' },
        { name: 'Tags', type: 'select', multiple: true, options: [{ value: 'a' }, { value: 'b' }] },
      ]);
      const ids = await fieldIds(ctx, table.id);
      const inserted = await recordDb(ctx)
        .insertInto(`rec_${table.id}`)
        .values({ created_at: '2024-01-01 00:00:00', updated_at: '2024-01-01 00:00:00', [`f_${ids.headline}`]: 'kept value', [`f_${ids.tags}`]: JSON.stringify(['a', 'b']) })
        .returning('id')
        .executeTakeFirstOrThrow();
      const columnsBefore = await physicalColumns(ctx, table.id);

      const response = await post(`/api/table/${table.id}/field/headline/update`, { id: 'subject', name: 'Subject' });
      expect(response.status).toBe(200);
      expect(response.body.title_field).toBe('subject');
      expect(response.body.fields[0]).toMatchObject({ id: 'subject', name: 'Subject', type: 'text' });
      expect((await post(`/api/table/${table.id}/field/tags/update`, { id: 'labels' })).status).toBe(200);

      expect(await fieldIds(ctx, table.id)).toEqual({ subject: ids.headline, labels: ids.tags });
      expect(await physicalColumns(ctx, table.id)).toEqual(columnsBefore);
      const row = await recordDb(ctx).selectFrom(`rec_${table.id}`).selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow();
      expect(row[`f_${ids.headline}`]).toBe('kept value');
      expect(parseJson(row[`f_${ids.tags}`])).toEqual(['a', 'b']);
      expect((await post(`/api/table/${table.id}/field/headline/update`, { name: 'Gone' })).status).toBe(404);
    });

    it('changes name, options, decimals and the common options, keeping what is not given', async () => {
      const table = await newTable([
        { name: 'Stage', type: 'select', options: [{ value: 'a' }] },
        { name: 'Amount', type: 'number', decimals: 2, required: true },
      ]);
      const stage = await post(`/api/table/${table.id}/field/stage/update`, { name: 'Phase', options: [{ value: 'a' }, { value: 'b', color: 'blue' }], editable_by: 'admins', hidden: 'always' });
      expect(stage.status).toBe(200);
      expect(stage.body.fields[0]).toEqual({
        id: 'stage',
        name: 'Phase',
        type: 'select',
        multiple: false,
        required: false,
        editable_by: 'admins',
        hidden: 'always',
        options: [{ value: 'a' }, { value: 'b', color: 'blue' }],
      });
      const amount = await post(`/api/table/${table.id}/field/amount/update`, { decimals: null });
      expect(amount.body.fields[1]).toEqual({ id: 'amount', name: 'Amount', type: 'number', multiple: false, required: true, editable_by: 'members', hidden: null, decimals: null });
      const unhidden = await post(`/api/table/${table.id}/field/stage/update`, { hidden: null, type: 'select', multiple: false });
      expect(unhidden.body.fields[0]).toMatchObject({ hidden: null, editable_by: 'admins', name: 'Phase' });
    });

    it("writes take a select's new options, and refuse its removed ones, from the next request on", async () => {
      const table = await newTable([{ name: 'Stage', type: 'select', options: [{ value: 'a' }, { value: 'b' }] }]);
      const create = (stage: string) => post(`/api/table/${table.id}/records/create`, { data: { stage } });
      expect((await create('a')).status).toBe(200);
      expect((await create('c')).body.error.message).toContain('"c" is not one of the options');
      expect((await post(`/api/table/${table.id}/field/stage/update`, { options: [{ value: 'b' }, { value: 'c' }] })).status).toBe(200);
      expect((await create('c')).status).toBe(200);
      const refused = await create('a');
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain('"a" is not one of the options');
    });

    it.each([
      [{ type: 'longtext' }, 'type cannot be changed'],
      [{ multiple: true }, 'multiple cannot be changed'],
      [{ id: 'other' }, 'id "other" is already used in this table'],
      [{ id: 'created_at' }, 'id "created_at" is reserved'],
      [{ id: 'Bad' }, 'id must match'],
      [{ name: '' }, 'name must be 1 to 200 characters'],
      [{ decimals: 2 }, 'decimals does not apply to text fields'],
      [{ required: null }, 'required must be a boolean'],
      [{ nonsense: true }, 'unknown property "nonsense"'],
    ])('rejects the update %j and changes nothing', async (changes, message) => {
      const table = await newTable([{ name: 'Headline', type: 'text' }, { name: 'Other', type: 'text' }]);
      await expectRejected(table.id, () => post(`/api/table/${table.id}/field/headline/update`, changes), message);
    });

    it('refuses to change multiple or the target of a lookup field', async () => {
      const target = await newTable();
      const table = await newTable([{ name: 'Ref', type: 'lookup', table_id: target.id, multiple: true }]);
      await expectRejected(table.id, () => post(`/api/table/${table.id}/field/ref/update`, { multiple: false }), 'multiple cannot be changed');
      await expectRejected(table.id, () => post(`/api/table/${table.id}/field/ref/update`, { table_id: table.id }), 'the table_id of a lookup field cannot be changed');
    });

    it('keeps a lookup field editable after its target table is deleted', async () => {
      const target = await newTable();
      const table = await newTable([{ name: 'Ref', type: 'lookup', table_id: target.id }]);
      expect((await post(`/api/table/${target.id}/delete`)).status).toBe(200);
      const response = await post(`/api/table/${table.id}/field/ref/update`, { name: 'Former ref' });
      expect(response.status).toBe(200);
      expect(response.body.fields[0]).toMatchObject({ name: 'Former ref', table_id: target.id });
    });

    it('answers 404 for an unknown slug', async () => {
      const table = await newTable();
      const response = await post(`/api/table/${table.id}/field/nope/update`, { name: 'X' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: 'field_not_found', message: 'Field not found: nope' } });
    });
  });

  describe('delete', () => {
    it('removes the field and drops its physical column, leaving other data alone', async () => {
      const table = await newTable([{ name: 'Headline', type: 'text' }, { name: 'Notes', type: 'longtext' }]);
      const ids = await fieldIds(ctx, table.id);
      await recordDb(ctx)
        .insertInto(`rec_${table.id}`)
        .values({ created_at: '2024-01-01 00:00:00', updated_at: '2024-01-01 00:00:00', [`f_${ids.headline}`]: 'stays', [`f_${ids.notes}`]: 'goes' })
        .execute();
      const before = await physicalColumns(ctx, table.id);

      const response = await post(`/api/table/${table.id}/field/notes/delete`);
      expect(response.status).toBe(200);
      expect(slugsOf(response.body)).toEqual(['headline']);
      const { [`f_${ids.notes}`]: dropped, ...remaining } = before;
      expect(dropped).toBeDefined();
      expect(await physicalColumns(ctx, table.id)).toEqual(remaining);
      const rows = await recordDb(ctx).selectFrom(`rec_${table.id}`).select(`f_${ids.headline}`).execute();
      expect(rows).toEqual([{ [`f_${ids.headline}`]: 'stays' }]);
    });

    it('lets a new field take the slug of a deleted one, in a fresh column', async () => {
      const table = await newTable([{ name: 'Headline', type: 'text' }, { name: 'Notes', type: 'longtext' }]);
      const oldId = (await fieldIds(ctx, table.id)).notes;
      await post(`/api/table/${table.id}/field/notes/delete`);
      const response = await addField(table.id, { name: 'Notes', type: 'number' });
      expect(response.body.fields.at(-1)).toMatchObject({ id: 'notes', type: 'number' });
      const newId = (await fieldIds(ctx, table.id)).notes;
      expect(newId).not.toBe(oldId);
      expect(Object.keys(await physicalColumns(ctx, table.id))).toContain(`f_${newId}`);
    });

    it('answers 404 for an unknown slug', async () => {
      const table = await newTable();
      const response = await post(`/api/table/${table.id}/field/nope/delete`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('field_not_found');
    });
  });

  describe('concurrent changes to one table', () => {
    it('gives concurrent creates of the same name distinct slugs, all answered 200', async () => {
      const table = await newTable([]);
      const responses = await Promise.all(Array.from({ length: 6 }, () => addField(table.id, { name: 'Name', type: 'text' })));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(slugsOf(await readTable(table.id)).sort()).toEqual(['name', 'name_2', 'name_3', 'name_4', 'name_5', 'name_6']);
      const ids = await fieldIds(ctx, table.id);
      const columns = Object.keys(await physicalColumns(ctx, table.id)).filter((c) => c.startsWith('f_'));
      expect(columns.sort()).toEqual(Object.values(ids).map((id) => `f_${id}`).sort());
    });

    it('lets one of two concurrent renames to the same slug win and refuses the other with 400', async () => {
      const table = await newTable([{ name: 'A', type: 'text' }, { name: 'B', type: 'text' }]);
      const [first, second] = await Promise.all([
        post(`/api/table/${table.id}/field/a/update`, { id: 'same' }),
        post(`/api/table/${table.id}/field/b/update`, { id: 'same' }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 400]);
      expect(slugsOf(await readTable(table.id)).filter((slug) => slug === 'same')).toHaveLength(1);
    });

    it('deletes a field once when two deletes race, answering the other 404', async () => {
      const table = await newTable([{ name: 'A', type: 'text' }, { name: 'B', type: 'text' }]);
      const [first, second] = await Promise.all([post(`/api/table/${table.id}/field/b/delete`), post(`/api/table/${table.id}/field/b/delete`)]);
      expect([first.status, second.status].sort()).toEqual([200, 404]);
      expect(slugsOf(await readTable(table.id))).toEqual(['a']);
    });
  });

  describe('a failing DDL statement', () => {
    /** Drops `rec_<tableId>` behind the service's back, so the next DDL on it fails inside the transaction. */
    async function breakPhysicalTable(tableId: number) {
      await sql`drop table ${sql.table(`rec_${tableId}`)}`.execute(ctx.container.database.db);
    }

    function expectGenericInternalError(response: { status: number; body: any }) {
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ error: { code: 'internal_error', message: expect.stringMatching(/^Internal server error/), request_id: expect.any(String) } });
      expect(response.body.error.message).toContain(response.body.error.request_id);
      const text = JSON.stringify(response.body);
      for (const leak of ['rec_', 'no such table', 'relation', 'does not exist', 'ALTER', 'alter table', 'SQL']) expect(text).not.toContain(leak);
    }

    it('leaves the metadata unchanged when adding the column fails', async () => {
      const table = await newTable([{ name: 'Headline', type: 'text' }]);
      const before = await readTable(table.id);
      await breakPhysicalTable(table.id);
      expectGenericInternalError(await addField(table.id, { name: 'Extra', type: 'text' }));
      expect(await readTable(table.id)).toEqual(before);
      expect(Object.keys(await fieldIds(ctx, table.id))).toEqual(['headline']);
    });

    it('leaves the field in place when dropping its column fails', async () => {
      const table = await newTable([{ name: 'Headline', type: 'text' }, { name: 'Notes', type: 'longtext' }]);
      const before = await readTable(table.id);
      await breakPhysicalTable(table.id);
      expectGenericInternalError(await post(`/api/table/${table.id}/field/notes/delete`));
      expect(await readTable(table.id)).toEqual(before);
      expect(Object.keys(await fieldIds(ctx, table.id)).sort()).toEqual(['headline', 'notes']);
    });

    it('leaves the service working afterwards', async () => {
      const table = await newTable();
      await breakPhysicalTable(table.id);
      await addField(table.id, { name: 'Extra', type: 'text' });
      const healthy = await newTable();
      expect((await addField(healthy.id, { name: 'Extra', type: 'text' })).status).toBe(200);
    });
  });
});
