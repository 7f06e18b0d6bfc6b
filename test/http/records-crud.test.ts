import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World } from '../factories.js';

const datetimePattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Create, get, update, delete and delete_batch of records: CONTRACT §4 and §5. */
describe('record CRUD', () => {
  let nowMs = Date.parse('2024-05-01T10:00:00Z');
  const clock = { now: () => new Date(nowMs) };
  const ctx = useTestApp({ clock });
  let world: World;
  let spaceId: number;
  const tick = (seconds = 61) => {
    nowMs += seconds * 1000;
  };
  const stamp = () => new Date(nowMs).toISOString().slice(0, 19).replace('T', ' ');

  let tableId: number;
  let targetTableId: number;
  let memberId: number;
  let nonMemberId: number;
  let editorKey: string;
  let adminKey: string;

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'CRUD')).id;
    const editor = await createUser(ctx, world, 'Eve Editor');
    const admin = await createUser(ctx, world, 'Adam Admin');
    memberId = editor.id;
    nonMemberId = (await createUser(ctx, world, 'Out Sider')).id;
    await addMember(ctx, world, spaceId, editor.id, 'editor');
    await addMember(ctx, world, spaceId, admin.id, 'admin');
    editorKey = (await createKey(ctx, { userId: editor.id })).key;
    adminKey = (await createKey(ctx, { userId: admin.id })).key;
    targetTableId = (await createTable(ctx, world, spaceId, { name: 'Targets', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Tasks',
        fields: [
          { id: 'qty', name: 'Qty', type: 'number' },
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'notes', name: 'Notes', type: 'text' },
          { id: 'done', name: 'Done', type: 'checkbox' },
          { id: 'owner', name: 'Owner', type: 'user' },
          { id: 'parent', name: 'Parent', type: 'lookup', table_id: targetTableId },
        ],
      })
    ).id;
  });

  const post = (url: string, body?: unknown, key: string = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const create = (data: unknown, key?: string, table = tableId) => post(`/api/table/${table}/records/create`, { data }, key);
  const update = (id: number, data: unknown, key?: string, table = tableId) => post(`/api/table/${table}/record/${id}/update`, { data }, key);
  const get = (id: number, table = tableId) => call(ctx, 'GET', `/api/table/${table}/record/${id}/get`, { key: world.accountKey });
  const remove = (id: number, table = tableId) => post(`/api/table/${table}/record/${id}/delete`, {});
  const deleteBatch = (body: unknown, table = tableId) => post(`/api/table/${table}/records/delete_batch`, body);
  const allIds = async (table = tableId) => (await post(`/api/table/${table}/records/ids`, {})).body as number[];

  async function newRecord(data: Record<string, unknown>, table = tableId): Promise<number> {
    const response = await create(data, undefined, table);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.id;
  }

  function expectError(response: { status: number; body: any }, status: number, message: string, code?: string) {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.error.message).toBe(message);
    if (code) expect(response.body.error.code).toBe(code);
  }

  describe('create and get', () => {
    it('presents data in the order of the fields, slugs named as members of every object included', async () => {
      const fields = ['constructor', 'zeta', 'hasownproperty', 'alpha', 'proto'].map((id) => ({ id, name: id.toUpperCase(), type: 'text' }));
      const table = (await createTable(ctx, world, spaceId, { name: 'Member names', fields })).id;
      const created = await create({ alpha: 'a', constructor: 'c', proto: 'p', hasownproperty: 'h' }, undefined, table);
      expect(created.status).toBe(200);
      const expected = { constructor: 'c', zeta: null, hasownproperty: 'h', alpha: 'a', proto: 'p' };
      const queried = (await post(`/api/table/${table}/records/query`, {})).body[0];
      for (const record of [created.body, (await get(created.body.id, table)).body, queried]) {
        expect(Object.keys(record.data)).toEqual(['constructor', 'zeta', 'hasownproperty', 'alpha', 'proto']);
        expect(Object.getPrototypeOf(record.data)).toBe(Object.prototype);
        expect(record.data).toStrictEqual(expected);
      }
    });

    it('answers 200 with the full record {id, title, created_at, updated_at, data}', async () => {
      const response = await create({ name: 'Write tests', qty: 3 });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toStrictEqual({
        id: expect.any(Number),
        title: 'Write tests',
        created_at: stamp(),
        updated_at: stamp(),
        data: { qty: 3, name: 'Write tests', notes: null, done: false, owner: null, parent: null },
      });
      expect(response.body.created_at).toMatch(datetimePattern);
    });

    it('creates a record from an empty body or empty data', async () => {
      for (const body of [{}, { data: {} }]) {
        const response = await post(`/api/table/${tableId}/records/create`, body);
        expect(response.status).toBe(200);
        expect(response.body.data.name).toBeNull();
      }
    });

    it('gives each new record a new id', async () => {
      const first = await newRecord({ name: 'one' });
      const second = await newRecord({ name: 'two' });
      expect(second).toBeGreaterThan(first);
    });

    it('gets the record exactly as create answered it', async () => {
      const created = await create({ name: 'Fetch me', notes: 'n', done: true });
      const fetched = await get(created.body.id);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toStrictEqual(created.body);
    });

    it('answers 400 Record not found for a record id that does not exist', async () => {
      expectError(await get(999_999), 400, 'Record not found', 'record_not_found');
    });

    it('answers 400 Record not found for a record of another table', async () => {
      const other = await newRecord({ name: 'Target only' }, targetTableId);
      const empty = await createTable(ctx, world, spaceId, { name: 'Empty', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
      expectError(await get(other, empty.id), 400, 'Record not found');
      expect((await get(other, targetTableId)).status).toBe(200);
    });

    it('answers creates arriving together each with its own record, its own logged change, search text and count', async () => {
      // On PostgreSQL the creates of a table that arrive together go as one statement
      // (record-statements.ts): each must still get its own id and values, its own
      // record.created change by its own writer, and be found and counted; one that fails its
      // checks fails alone.
      const target = await newRecord({ name: 'Target of many' }, targetTableId);
      const countBefore = (await post(`/api/table/${tableId}/records/count`, {})).body.total;
      const inputs = Array.from({ length: 12 }, (_, n) => ({ name: `Together ${n} "quoted", {braced} \\ back`, qty: n, done: n % 2 === 0, owner: memberId, parent: target, notes: n % 3 === 0 ? null : `gathered-${n}-zq` }));
      const responses = await Promise.all([...inputs.map((data, n) => create(data, n % 2 === 0 ? editorKey : undefined)), create({ name: 'Refused', qty: 'many' })]);
      expectError(responses.pop()!, 400, 'Invalid value for field qty: expected a number, got "many"');
      const ids = responses.map((response) => response.body.id);
      expect(new Set(ids).size).toBe(inputs.length);
      const actors: string[] = [];
      for (const [n, response] of responses.entries()) {
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body.data).toMatchObject({ ...inputs[n], owner: { id: memberId }, parent: { id: target, title: 'Target of many' } });
        expect((await get(ids[n])).body).toStrictEqual(response.body);
        const history = await post(`/api/table/${tableId}/record/${ids[n]}/history`, {});
        expect(history.body).toHaveLength(1);
        // The change's `after` leaves out empty values.
        const written = Object.fromEntries(Object.entries(response.body.data).filter(([, value]) => value !== null));
        expect(history.body[0]).toMatchObject({ kind: 'record.created', record_id: ids[n], after: written });
        actors.push(JSON.stringify(history.body[0].actor));
      }
      // Each change names its own writer: the editor's key for the even ones, the account's for the others.
      expect(new Set(actors.filter((_, n) => n % 2 === 0)).size).toBe(1);
      expect(new Set(actors.filter((_, n) => n % 2 === 1)).size).toBe(1);
      expect(actors[0]).not.toBe(actors[1]);
      expect((await post(`/api/table/${tableId}/records/count`, {})).body.total).toBe(countBefore + inputs.length);
      expect((await post(`/api/table/${tableId}/records/query`, { search: 'gathered-4-zq' })).body.map((r: { id: number }) => r.id)).toEqual([ids[4]]);
      expect((await post(`/api/table/${tableId}/records/query`, { search: 'gathered' })).body).toHaveLength(8);
    });

    it('answers gets arriving together each with its own record, as written just before', async () => {
      // On PostgreSQL the gets of one turn are one statement (db/turn-gathering.ts): each must
      // still get only its own record, see what was acknowledged before it, and 400 alone.
      const target = await newRecord({ name: 'Target' }, targetTableId);
      const kept = await newRecord({ name: 'Kept', parent: target });
      const changed = await newRecord({ name: 'Before' });
      const deleted = await newRecord({ name: 'Deleted' });
      tick();
      const updated = await update(changed, { name: 'After', qty: 2 });
      expect(updated.status).toBe(200);
      await update(target, { name: 'Target renamed' }, undefined, targetTableId);
      expect((await remove(deleted)).status).toBe(200);
      const [keptRead, changedRead, deletedRead, missingRead, targetRead, keptAgain] = await Promise.all([get(kept), get(changed), get(deleted), get(999_999), get(target, targetTableId), get(kept)]);
      expect(keptRead.body).toMatchObject({ id: kept, title: 'Kept', data: { parent: { id: target, title: 'Target renamed' } } });
      expect(keptAgain.body).toStrictEqual(keptRead.body);
      expect(changedRead.body).toStrictEqual(updated.body);
      expectError(deletedRead, 400, 'Record not found', 'record_not_found');
      expectError(missingRead, 400, 'Record not found', 'record_not_found');
      expect(targetRead.body).toMatchObject({ id: target, title: 'Target renamed' });
    });
  });

  describe('update', () => {
    it('answers updates arriving together each with its own record and its own logged change, one record\'s updates one after the other', async () => {
      // On PostgreSQL the updates of a table that arrive together go as one statement
      // (record-statements.ts); two of one record never share one, so the second replaces what
      // the first wrote, and each change's `before` is the value its own write replaced.
      const target = await newRecord({ name: 'Parent of many' }, targetTableId);
      const ids = await Promise.all(Array.from({ length: 8 }, (_, n) => newRecord({ name: `Updated together ${n}`, qty: n, parent: target })));
      tick();
      const responses = await Promise.all([
        ...ids.map((id, n) => update(id, { qty: 100 + n, done: n % 2 === 0 }, n % 2 === 0 ? editorKey : undefined)),
        update(ids[0], { qty: 999, done: true }),
        update(999_999, { qty: 1 }),
        update(ids[1], { qty: 101, done: false }),
      ]);
      expectError(responses[9], 400, 'Record not found', 'record_not_found');
      for (const [n, id] of ids.entries()) {
        expect(responses[n].status, JSON.stringify(responses[n].body)).toBe(200);
        expect(responses[n].body).toMatchObject({ id, title: `Updated together ${n}`, updated_at: stamp(), data: { qty: 100 + n, done: n % 2 === 0, parent: { id: target, title: 'Parent of many' } } });
      }
      expect(responses[8].body.data).toMatchObject({ qty: 999, done: true });
      // The update of record 1 that wrote its values again changed nothing and logged nothing.
      expect(responses[10].body).toStrictEqual(responses[1].body);
      const changes = async (id: number) => ((await post(`/api/table/${tableId}/record/${id}/history`, {})).body as Array<{ kind: string; before: unknown; after: unknown }>).map(({ kind, before, after }) => ({ kind, before, after }));
      // Record 0's two updates, in either order: each replaced what the other wrote, and the
      // record holds the later one's values.
      const [later, earlier, created] = await changes(ids[0]);
      expect(created.kind).toBe('record.created');
      expect(earlier).toEqual({ kind: 'record.updated', before: { qty: 0, done: false }, after: { qty: expect.any(Number), done: true } });
      expect(later).toEqual({ kind: 'record.updated', before: { qty: (earlier.after as { qty: number }).qty }, after: { qty: expect.any(Number) } });
      expect([(earlier.after as { qty: number }).qty, (later.after as { qty: number }).qty].sort()).toEqual([100, 999]);
      expect((await get(ids[0])).body).toStrictEqual(responses[(later.after as { qty: number }).qty === 999 ? 8 : 0].body);
      expect(await changes(ids[1])).toEqual([
        { kind: 'record.updated', before: { qty: 1 }, after: { qty: 101 } },
        { kind: 'record.created', before: {}, after: expect.any(Object) },
      ]);
      for (const [n, id] of ids.entries()) if (n > 1) expect((await changes(id))[0]).toEqual({ kind: 'record.updated', before: n % 2 === 0 ? { qty: n, done: false } : { qty: n }, after: n % 2 === 0 ? { qty: 100 + n, done: true } : { qty: 100 + n } });
    });

    it('changes only the given slugs and answers the full record with a new updated_at', async () => {
      const created = (await create({ name: 'Before', notes: 'keep me', qty: 1, done: true })).body;
      tick();
      const response = await update(created.id, { name: 'After', qty: 2 });
      expect(response.status).toBe(200);
      expect(response.body).toStrictEqual({
        id: created.id,
        title: 'After',
        created_at: created.created_at,
        updated_at: stamp(),
        data: { ...created.data, name: 'After', qty: 2 },
      });
      expect(response.body.updated_at).not.toBe(created.updated_at);
      expect((await get(created.id)).body).toStrictEqual(response.body);
    });

    it('writes nothing when data is empty: updated_at stays (an update that changes nothing)', async () => {
      const created = (await create({ name: 'Touch' })).body;
      tick();
      const response = await update(created.id, {});
      expect(response.status).toBe(200);
      expect(response.body).toStrictEqual(created);
    });

    it('answers 400 Record not found for a missing record, and creates nothing', async () => {
      const before = await allIds();
      expectError(await update(999_999, { name: 'ghost' }), 400, 'Record not found', 'record_not_found');
      // Changes that leave the search text alone take a one-statement path: the same answer.
      expectError(await update(999_999, { qty: 3, done: true }), 400, 'Record not found', 'record_not_found');
      expectError(await update(999_999, {}), 400, 'Record not found', 'record_not_found');
      expect(await allIds()).toEqual(before);
    });

    it('answers 400 when data is missing from the body', async () => {
      const id = await newRecord({ name: 'No data' });
      const response = await post(`/api/table/${tableId}/record/${id}/update`, {});
      expect(response.status).toBe(400);
    });
  });

  describe('unknown slugs', () => {
    it('refuses an unknown slug on create with 400 Invalid field: <slug>, writing nothing', async () => {
      const before = await allIds();
      expectError(await create({ name: 'ok', nope: 1 }), 400, 'Invalid field: nope', 'invalid_field');
      expect(await allIds()).toEqual(before);
    });

    it('refuses an unknown slug on update with 400 Invalid field: <slug>, changing nothing', async () => {
      const id = await newRecord({ name: 'Stays' });
      const stored = (await get(id)).body;
      expectError(await update(id, { name: 'Changed', Name: 'x' }), 400, 'Invalid field: Name');
      expect((await get(id)).body).toEqual(stored);
    });

    it.each(['id', 'title', 'created_at', 'updated_at'])('refuses the reserved slug %s as an unknown field', async (slug) => {
      const id = await newRecord({ name: 'Reserved' });
      const stored = (await get(id)).body;
      expectError(await update(id, { [slug]: 5 }), 400, `Invalid field: ${slug}`);
      expect((await get(id)).body).toEqual(stored);
    });
  });

  describe('delete', () => {
    it('answers {"id":N,"deleted":true}, then 400 Record not found on a second delete, get and update', async () => {
      const id = await newRecord({ name: 'Doomed' });
      const response = await remove(id);
      expect(response.status).toBe(200);
      expect(response.body).toStrictEqual({ id, deleted: true });
      expectError(await remove(id), 400, 'Record not found', 'record_not_found');
      expectError(await get(id), 400, 'Record not found');
      expectError(await update(id, { name: 'zombie' }), 400, 'Record not found');
      expectError(await update(id, { qty: 1 }), 400, 'Record not found');
      expect(await allIds()).not.toContain(id);
    });

    it('deletes with no body at all (Content-Type: application/json, empty payload)', async () => {
      const id = await newRecord({ name: 'Bodiless' });
      const response = await call(ctx, 'POST', `/api/table/${tableId}/record/${id}/delete`, { key: world.accountKey, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id, deleted: true });
    });

    it('deletes with no body and no Content-Type', async () => {
      const id = await newRecord({ name: 'Bare' });
      const response = await call(ctx, 'POST', `/api/table/${tableId}/record/${id}/delete`, { key: world.accountKey });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id, deleted: true });
    });
  });

  describe('title', () => {
    it('comes from the first text field by default, follows its updates, and is null when it is empty', async () => {
      const created = (await create({ name: 'Titled', notes: 'not the title', qty: 9 })).body;
      expect(created.title).toBe('Titled');
      expect((await update(created.id, { name: 'Retitled' })).body.title).toBe('Retitled');
      expect((await update(created.id, { name: '' })).body.title).toBeNull();
      expect((await get(created.id)).body.title).toBeNull();
    });

    it('comes from the title_field when one is set', async () => {
      const table = await createTable(ctx, world, spaceId, {
        name: 'Explicit',
        title_field: 'code',
        fields: [{ id: 'label', name: 'Label', type: 'text' }, { id: 'code', name: 'Code', type: 'text' }],
      });
      const created = (await create({ label: 'label', code: 'CODE-1' }, undefined, table.id)).body;
      expect(created.title).toBe('CODE-1');
    });

    it('is the text of a number title field', async () => {
      const table = await createTable(ctx, world, spaceId, {
        name: 'Numbered',
        title_field: 'num',
        fields: [{ id: 'label', name: 'Label', type: 'text' }, { id: 'num', name: 'Num', type: 'number' }],
      });
      expect((await create({ label: 'x', num: 42 }, undefined, table.id)).body.title).toBe('42');
    });

    it('is null when the table has no text field and no title_field', async () => {
      const table = await createTable(ctx, world, spaceId, { name: 'Untitled', fields: [{ id: 'n', name: 'N', type: 'number' }, { id: 'mail', name: 'Mail', type: 'email' }] });
      const created = await create({ n: 1, mail: 'a@b.co' }, undefined, table.id);
      expect(created.status).toBe(200);
      expect(created.body.title).toBeNull();
      expect((await get(created.body.id, table.id)).body.title).toBeNull();
    });
  });

  describe('required fields', () => {
    let requiredTable: number;
    beforeAll(async () => {
      requiredTable = (
        await createTable(ctx, world, spaceId, {
          name: 'Required',
          fields: [
            { id: 'must', name: 'Must', type: 'text', required: true },
            { id: 'opt', name: 'Opt', type: 'text' },
          ],
        })
      ).id;
    });

    it.each([
      ['left out', { opt: 'x' }],
      ['null', { must: null, opt: 'x' }],
      ['""', { must: '', opt: 'x' }],
    ])('refuses a create with the required field %s, with 400 naming it, writing nothing', async (_label, data) => {
      const before = await allIds(requiredTable);
      const response = await create(data, undefined, requiredTable);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/\bmust\b/);
      expect(await allIds(requiredTable)).toEqual(before);
    });

    it('refuses an update that empties the required field, and allows one that leaves it out', async () => {
      const id = await newRecord({ must: 'here' }, requiredTable);
      const stored = (await get(id, requiredTable)).body;
      for (const empty of [null, '']) {
        const response = await update(id, { must: empty, opt: 'changed' }, undefined, requiredTable);
        expect(response.status).toBe(400);
        expect(response.body.error.message).toMatch(/\bmust\b/);
        expect((await get(id, requiredTable)).body).toEqual(stored);
      }
      const ok = await update(id, { opt: 'changed' }, undefined, requiredTable);
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({ must: 'here', opt: 'changed' });
    });
  });

  describe('editable_by', () => {
    let guarded: number;
    beforeAll(async () => {
      guarded = (
        await createTable(ctx, world, spaceId, {
          name: 'Guarded',
          fields: [
            { id: 'free', name: 'Free', type: 'text' },
            { id: 'admin_only', name: 'Admin only', type: 'text', editable_by: 'admins' },
            { id: 'frozen', name: 'Frozen', type: 'text', editable_by: 'none' },
          ],
        })
      ).id;
    });

    it("refuses an editor's personal key on an admins-only field with 403 No edit permission for field: <slug>", async () => {
      const before = await allIds(guarded);
      expectError(await create({ free: 'x', admin_only: 'y' }, editorKey, guarded), 403, 'No edit permission for field: admin_only', 'field_not_editable');
      expect(await allIds(guarded)).toEqual(before);

      const id = await newRecord({ free: 'x', admin_only: 'set by owner' }, guarded);
      const stored = (await get(id, guarded)).body;
      expectError(await update(id, { free: 'changed', admin_only: 'z' }, editorKey, guarded), 403, 'No edit permission for field: admin_only');
      expect((await get(id, guarded)).body).toEqual(stored);
    });

    it('lets the editor write the other fields of the same record', async () => {
      const id = await newRecord({ free: 'x', admin_only: 'set by owner' }, guarded);
      const response = await update(id, { free: 'by editor' }, editorKey, guarded);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ free: 'by editor', admin_only: 'set by owner', frozen: null });
    });

    it("lets a space admin's personal key and the account key write an admins-only field", async () => {
      const created = await create({ admin_only: 'by admin' }, adminKey, guarded);
      expect(created.status).toBe(200);
      expect((await update(created.body.id, { admin_only: 'by owner' }, world.accountKey, guarded)).body.data.admin_only).toBe('by owner');
    });

    it('refuses everyone, even the unrestricted account key, on a field editable by none', async () => {
      const id = await newRecord({ free: 'x' }, guarded);
      for (const key of [world.accountKey, adminKey, editorKey]) {
        expectError(await update(id, { frozen: 'no' }, key, guarded), 403, 'No edit permission for field: frozen');
        expectError(await create({ frozen: null }, key, guarded), 403, 'No edit permission for field: frozen');
      }
      expect((await get(id, guarded)).body.data.frozen).toBeNull();
    });
  });

  describe('delete_batch', () => {
    it('answers {deleted, not_found} for present, absent and duplicate ids', async () => {
      const a = await newRecord({ name: 'a' });
      const b = await newRecord({ name: 'b' });
      const c = await newRecord({ name: 'c' });
      const response = await deleteBatch({ record_ids: [a, 999_998, b, a, 999_998, b] });
      expect(response.status).toBe(200);
      expect(response.body).toStrictEqual({ deleted: [a, b], not_found: [999_998] });
      const left = await allIds();
      expect(left).not.toContain(a);
      expect(left).not.toContain(b);
      expect(left).toContain(c);
      expect((await deleteBatch({ record_ids: [a, c] })).body).toStrictEqual({ deleted: [c], not_found: [a] });
    });

    it('answers empty lists for an empty array', async () => {
      const response = await deleteBatch({ record_ids: [] });
      expect(response.status).toBe(200);
      expect(response.body).toStrictEqual({ deleted: [], not_found: [] });
    });

    it('takes exactly 1000 ids, and refuses 1001 with 400, deleting nothing', async () => {
      const id = await newRecord({ name: 'survivor' });
      const many = Array.from({ length: 1001 }, (_, i) => i === 0 ? id : 1_000_000 + i);
      const refused = await deleteBatch({ record_ids: many });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/record_ids/);
      expect(await allIds()).toContain(id);
      const accepted = await deleteBatch({ record_ids: many.slice(0, 1000) });
      expect(accepted.status).toBe(200);
      expect(accepted.body.deleted).toEqual([id]);
      expect(accepted.body.not_found).toHaveLength(999);
    });

    it.each([
      ['strings', (id: number) => [String(id)]],
      ['a fraction', (id: number) => [id, 1.5]],
      ['null', (id: number) => [id, null]],
      ['objects', (id: number) => [{ id }]],
      ['a single id, not an array', (id: number) => id],
    ])('refuses %s in record_ids with 400, deleting nothing', async (_label, ids) => {
      const id = await newRecord({ name: 'kept' });
      const response = await deleteBatch({ record_ids: ids(id) });
      expect(response.status).toBe(400);
      expect(await allIds()).toContain(id);
    });

    it('an integer no record can have (zero, negative, past the column) is simply not found', async () => {
      const id = await newRecord({ name: 'gone' });
      const response = await deleteBatch({ record_ids: [id, 0, -1, 3_000_000_000] });
      expect(response.body).toEqual({ deleted: [id], not_found: [0, -1, 3_000_000_000] });
    });

    it('refuses a body without record_ids with 400', async () => {
      expect((await deleteBatch({})).status).toBe(400);
      expect((await deleteBatch({ ids: [1] })).status).toBe(400);
    });
  });

  describe('malformed bodies', () => {
    const rawPost = (url: string, payload: string) => call(ctx, 'POST', url, { key: world.accountKey, payload, headers: { 'content-type': 'application/json' } });

    it.each([
      ['data is an array', { data: [{ name: 'x' }] }],
      ['data is a string', { data: 'name=x' }],
      ['data is a number', { data: 5 }],
      ['data is null', { data: null }],
      ['an unknown top-level key', { data: { name: 'x' }, extra: true }],
      ['fields given at the top level', { name: 'x' }],
      ['the body is an array', [{ data: { name: 'x' } }]],
    ])('refuses %s with 400 and writes nothing', async (_label, body) => {
      const id = await newRecord({ name: 'untouched' });
      const stored = (await get(id)).body;
      const before = await allIds();
      const created = await post(`/api/table/${tableId}/records/create`, body);
      expect(created.status).toBe(400);
      expect(created.body.error).toEqual({ code: expect.any(String), message: expect.any(String) });
      expect(await allIds()).toEqual(before);
      const updated = await post(`/api/table/${tableId}/record/${id}/update`, body);
      expect(updated.status).toBe(400);
      expect((await get(id)).body).toEqual(stored);
    });

    it.each([['{"data": {"name": "x"'], ['{data: {}}'], ['not json'], ['{"data": {"name": "x"}} trailing']])('refuses the malformed JSON %j with 400 and writes nothing', async (payload) => {
      const id = await newRecord({ name: 'untouched' });
      const stored = (await get(id)).body;
      const before = await allIds();
      const created = await rawPost(`/api/table/${tableId}/records/create`, payload);
      expect(created.status).toBe(400);
      expect(created.body.error.code).toBe('invalid_json');
      expect(await allIds()).toEqual(before);
      expect((await rawPost(`/api/table/${tableId}/record/${id}/update`, payload)).status).toBe(400);
      expect((await get(id)).body).toEqual(stored);
    });

    it('refuses a malformed delete_batch body with 400 and deletes nothing', async () => {
      const id = await newRecord({ name: 'untouched' });
      expect((await rawPost(`/api/table/${tableId}/records/delete_batch`, `{"record_ids": [${id}`)).status).toBe(400);
      expect(await allIds()).toContain(id);
    });
  });

  describe('all or nothing', () => {
    it('writes nothing when a lookup value fails in a multi-field create', async () => {
      const before = await allIds();
      const response = await create({ name: 'Half', notes: 'written?', owner: memberId, parent: 999_999 });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/\bparent\b/);
      expect(await allIds()).toEqual(before);
    });

    it('writes nothing when a user value fails in a multi-field update', async () => {
      const target = await newRecord({ name: 'Target' }, targetTableId);
      const id = await newRecord({ name: 'Whole', notes: 'original', owner: memberId, parent: target });
      const stored = (await get(id)).body;
      tick();
      const response = await update(id, { name: 'Changed', notes: 'changed', parent: null, owner: nonMemberId });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/\bowner\b/);
      expect((await get(id)).body).toEqual(stored);
    });

    it('writes nothing when a lookup value fails after valid ones in a multi-field update', async () => {
      const target = await newRecord({ name: 'Target' }, targetTableId);
      const id = await newRecord({ name: 'Whole', parent: target });
      const stored = (await get(id)).body;
      tick();
      const response = await update(id, { owner: memberId, done: true, name: 'Changed', parent: { id: 999_999 } });
      expect(response.status).toBe(400);
      expect((await get(id)).body).toEqual(stored);
    });
  });
});
