import { beforeAll, describe, expect, it } from 'vitest';
import { missingId } from '../access-fixture.js';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type Response, type World } from '../factories.js';

/**
 * Lookups across spaces (ARCHITECTURE "Access"; docs/decisions.md "Lookups and space
 * visibility"). Account A has spaces S1 and S2; table T1 in S1 carries lookups, created by the
 * owner, into T2 of S2 (`ref`, `refs`) and into T3 of S1 (`near`). For a caller who cannot see
 * S2 (a key restricted to S1, the personal key of S1's admin or reader) T2 behaves exactly as a
 * table that does not exist: refused as a lookup target, every id refused on writes alike, its
 * lookups read and filter as empty. Whoever can see S2 gets titles as usual.
 */

interface Caller {
  name: string;
  key: () => string;
}

describe('lookups into a space the caller cannot see', () => {
  const ctx = useTestApp();
  let a: World;
  let s1: number;
  let s2: number;
  let t1: number;
  let t2: number;
  let t3: number;
  /** Records of T2 (titles `A-t2-rec1`, `A-t2-rec2`) and of T3 (`A-t3-rec1`). */
  let t2rec1: number;
  let t2rec2: number;
  let t3rec1: number;
  /** T1 records: `linked` points at T2 and T3 records, `plain` at nothing. */
  let linked: number;
  let plain: number;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    a = await createAccount(ctx);
    s1 = (await createSpace(ctx, a, 'S1')).id;
    s2 = (await createSpace(ctx, a, 'S2')).id;
    t2 = (await createTable(ctx, a, s2, { name: 'T2', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    t3 = (await createTable(ctx, a, s1, { name: 'T3', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    t1 = (
      await createTable(ctx, a, s1, {
        name: 'T1',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'ref', name: 'Ref', type: 'lookup', table_id: t2 },
          { id: 'refs', name: 'Refs', type: 'lookup', multiple: true, table_id: t2 },
          { id: 'near', name: 'Near', type: 'lookup', table_id: t3 },
        ],
      })
    ).id;
    const seed = async (tableId: number, data: object) => {
      const response = await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: a.accountKey, body: { data } });
      expect(response.status).toBe(200);
      return response.body.id as number;
    };
    t2rec1 = await seed(t2, { name: 'A-t2-rec1' });
    t2rec2 = await seed(t2, { name: 'A-t2-rec2' });
    t3rec1 = await seed(t3, { name: 'A-t3-rec1' });
    linked = await seed(t1, { name: 'linked', ref: t2rec1, refs: [t2rec1, t2rec2], near: t3rec1 });
    plain = await seed(t1, { name: 'plain' });

    const admin = await createUser(ctx, a, 'S1 Admin');
    const reader = await createUser(ctx, a, 'S1 Reader');
    const both = await createUser(ctx, a, 'Both spaces');
    await addMember(ctx, a, s1, admin.id, 'admin');
    await addMember(ctx, a, s1, reader.id, 'reader');
    await addMember(ctx, a, s1, both.id, 'admin');
    await addMember(ctx, a, s2, both.id, 'reader');
    keys.restricted = (await createKey(ctx, { accountId: a.accountId, spaceIds: [s1], name: 'S1 only' })).key;
    keys.admin = (await createKey(ctx, { userId: admin.id })).key;
    keys.reader = (await createKey(ctx, { userId: reader.id })).key;
    keys.both = (await createKey(ctx, { userId: both.id })).key;
    keys.ownerPersonal = (await createKey(ctx, { userId: a.ownerId })).key;
    keys.ownerRestricted = (await createKey(ctx, { userId: a.ownerId, spaceIds: [s1] })).key;
  });

  const restrictedKey: Caller = { name: 'an account key restricted to S1', key: () => keys.restricted };
  const s1Admin: Caller = { name: "the personal key of S1's admin (no member of S2)", key: () => keys.admin };
  const s1Reader: Caller = { name: "the personal key of S1's reader (no member of S2)", key: () => keys.reader };
  const ownerRestricted: Caller = { name: "the owner's personal key restricted to S1", key: () => keys.ownerRestricted };
  const blindWriters = [restrictedKey, s1Admin, ownerRestricted];
  const blindReaders = [restrictedKey, s1Admin, s1Reader, ownerRestricted];
  const seeingCallers: Caller[] = [
    { name: 'the unrestricted account key', key: () => a.accountKey },
    { name: "the owner's personal key", key: () => keys.ownerPersonal },
    { name: 'the personal key of a member of both spaces', key: () => keys.both },
  ];

  const post = (caller: Caller, url: string, body: unknown = {}) => call(ctx, 'POST', url, { key: caller.key(), body });
  const fieldsOf = async (tableId: number) => (await call(ctx, 'GET', `/api/table/${tableId}/get`, { key: a.accountKey })).body.fields.map((f: { id: string }) => f.id);
  const errorOf = (response: Response) => ({ status: response.status, body: response.body });

  describe('field and table creation', () => {
    it.each(blindWriters)('$name: a lookup to a table of S2 is refused exactly like one to a table that does not exist', async (caller) => {
      const before = await fieldsOf(t1);
      const hidden = await post(caller, `/api/table/${t1}/fields/create`, { id: 'peek', name: 'Peek', type: 'lookup', table_id: t2 });
      const missing = await post(caller, `/api/table/${t1}/fields/create`, { id: 'peek', name: 'Peek', type: 'lookup', table_id: missingId });
      expect(missing.status).toBe(400);
      expect(errorOf(hidden)).toEqual({ status: 400, body: { error: { code: 'invalid_field_definition', message: `Invalid field definition: table_id ${t2} is not a table of this account` } } });
      expect(JSON.stringify(errorOf(hidden)).replace(String(t2), 'ID')).toBe(JSON.stringify(errorOf(missing)).replace(String(missingId), 'ID'));
      expect(await fieldsOf(t1)).toEqual(before);
    });

    it.each(blindWriters)('$name: a new table with a lookup to a table of S2 is refused exactly like one to a table that does not exist', async (caller) => {
      const definition = (tableId: number) => ({ name: 'Peeking', fields: [{ id: 'peek', name: 'Peek', type: 'lookup', table_id: tableId }] });
      const tablesBefore = (await call(ctx, 'GET', `/api/space/${s1}/tables/list`, { key: a.accountKey })).body;
      const hidden = await post(caller, `/api/space/${s1}/tables/create`, definition(t2));
      const missing = await post(caller, `/api/space/${s1}/tables/create`, definition(missingId));
      expect(hidden.status).toBe(400);
      expect(JSON.stringify(errorOf(hidden)).replace(String(t2), 'ID')).toBe(JSON.stringify(errorOf(missing)).replace(String(missingId), 'ID'));
      expect((await call(ctx, 'GET', `/api/space/${s1}/tables/list`, { key: a.accountKey })).body).toEqual(tablesBefore);
    });

    it('a space admin who is also a member of S2 may create a lookup to a table of S2', async () => {
      const response = await post(seeingCallers[2], `/api/table/${t3}/fields/create`, { id: 'back', name: 'Back', type: 'lookup', table_id: t2 });
      expect(response.status).toBe(200);
      expect(response.body.fields.at(-1)).toMatchObject({ id: 'back', type: 'lookup', table_id: t2 });
    });
  });

  describe('record writes', () => {
    const invalid = (slug: string, id: number) => ({
      status: 400,
      body: { error: { code: 'invalid_field_value', message: `Invalid value for field ${slug}: record ${id} does not exist in table ${t2}` } },
    });

    it.each(blindWriters)('$name: an existing and a missing record of T2 are refused alike on create', async (caller) => {
      const count = (await post(seeingCallers[0], `/api/table/${t1}/records/count`)).body.total;
      expect(errorOf(await post(caller, `/api/table/${t1}/records/create`, { data: { name: 'x', ref: t2rec1 } }))).toEqual(invalid('ref', t2rec1));
      expect(errorOf(await post(caller, `/api/table/${t1}/records/create`, { data: { name: 'x', ref: 999_999 } }))).toEqual(invalid('ref', 999_999));
      expect(errorOf(await post(caller, `/api/table/${t1}/records/create`, { data: { name: 'x', ref: { id: t2rec2, title: 'A-t2-rec2' } } }))).toEqual(invalid('ref', t2rec2));
      // The first id is named whether or not it exists: no message tells which ones do.
      expect(errorOf(await post(caller, `/api/table/${t1}/records/create`, { data: { refs: [t2rec1, 999_999] } }))).toEqual(invalid('refs', t2rec1));
      expect(errorOf(await post(caller, `/api/table/${t1}/records/create`, { data: { refs: [999_999, t2rec1] } }))).toEqual(invalid('refs', 999_999));
      expect((await post(seeingCallers[0], `/api/table/${t1}/records/count`)).body.total).toBe(count);
    });

    it.each(blindWriters)('$name: an existing and a missing record of T2 are refused alike on update; the stored value stays', async (caller) => {
      expect(errorOf(await post(caller, `/api/table/${t1}/record/${plain}/update`, { data: { ref: t2rec1 } }))).toEqual(invalid('ref', t2rec1));
      expect(errorOf(await post(caller, `/api/table/${t1}/record/${plain}/update`, { data: { ref: 999_999 } }))).toEqual(invalid('ref', 999_999));
      expect(errorOf(await post(caller, `/api/table/${t1}/record/${linked}/update`, { data: { refs: [t2rec2] } }))).toEqual(invalid('refs', t2rec2));
      const owner = await call(ctx, 'GET', `/api/table/${t1}/record/${linked}/get`, { key: a.accountKey });
      expect(owner.body.data.refs).toEqual([
        { id: t2rec1, title: 'A-t2-rec1' },
        { id: t2rec2, title: 'A-t2-rec2' },
      ]);
    });

    it.each(blindWriters)('$name: other fields of a record with a hidden lookup can still be written; the lookup is kept', async (caller) => {
      const response = await post(caller, `/api/table/${t1}/record/${linked}/update`, { data: { name: 'linked' } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ name: 'linked', ref: null, refs: [], near: { id: t3rec1, title: 'A-t3-rec1' } });
      const owner = await call(ctx, 'GET', `/api/table/${t1}/record/${linked}/get`, { key: a.accountKey });
      expect(owner.body.data.ref).toEqual({ id: t2rec1, title: 'A-t2-rec1' });
    });

    it.each(seeingCallers.slice(0, 2))('$name: names the missing record among existing ones, as before', async (caller) => {
      expect(errorOf(await post(caller, `/api/table/${t1}/records/create`, { data: { refs: [t2rec1, 999_999] } }))).toEqual(invalid('refs', 999_999));
    });
  });

  describe('record reads', () => {
    const expectHidden = (record: { data: Record<string, unknown> }) => {
      expect(record.data).toMatchObject({ ref: null, refs: [], near: { id: t3rec1, title: 'A-t3-rec1' } });
      expect(JSON.stringify(record)).not.toContain('A-t2-rec');
    };
    const expectTitled = (record: { data: Record<string, unknown> }) => {
      expect(record.data).toMatchObject({
        ref: { id: t2rec1, title: 'A-t2-rec1' },
        refs: [
          { id: t2rec1, title: 'A-t2-rec1' },
          { id: t2rec2, title: 'A-t2-rec2' },
        ],
        near: { id: t3rec1, title: 'A-t3-rec1' },
      });
    };
    const getAs = (caller: Caller) => call(ctx, 'GET', `/api/table/${t1}/record/${linked}/get`, { key: caller.key() });
    const queryAs = async (caller: Caller, body: object = {}) => {
      const response = await post(caller, `/api/table/${t1}/records/query`, body);
      expect(response.status).toBe(200);
      return response.body.find((r: { id: number }) => r.id === linked);
    };

    it.each(blindReaders)('$name: get, query and a narrowed query show T2 lookups as empty, with no title of S2', async (caller) => {
      // Warmed first by a caller who sees S2: what it cached must not reach this one.
      expectTitled((await getAs(seeingCallers[0])).body);
      expectTitled(await queryAs(seeingCallers[0]));
      const got = await getAs(caller);
      expect(got.status).toBe(200);
      expectHidden(got.body);
      expectHidden(await queryAs(caller));
      const narrowed = await queryAs(caller, { fields: ['ref', 'refs', 'near'] });
      expectHidden(narrowed);
      expectTitled(await queryAs(seeingCallers[0], { fields: ['ref', 'refs', 'near'] }));
    });

    it.each(seeingCallers)('$name: sees the titles of S2, before and after a caller who cannot', async (caller) => {
      expectTitled((await getAs(caller)).body);
      expectHidden((await getAs(restrictedKey)).body);
      expectHidden(await queryAs(s1Admin));
      expectTitled((await getAs(caller)).body);
      expectTitled(await queryAs(caller));
    });

    it("titles follow the caller's membership of S2 as it changes, through the cached metadata", async () => {
      const user = await createUser(ctx, a, 'Comes and goes');
      await addMember(ctx, a, s1, user.id, 'editor');
      const personal = (await createKey(ctx, { userId: user.id })).key;
      const caller: Caller = { name: 'comes and goes', key: () => personal };
      expectHidden((await getAs(caller)).body);
      expectHidden(await queryAs(caller));
      await addMember(ctx, a, s2, user.id, 'reader');
      expectTitled((await getAs(caller)).body);
      expectTitled(await queryAs(caller));
      expect((await post(caller, `/api/table/${t1}/records/ids`, { where: { ref: t2rec1 } })).body).toEqual([linked]);
      const removed = await call(ctx, 'POST', `/api/space/${s2}/members/remove`, { key: a.accountKey, body: { user_id: user.id } });
      expect(removed.status).toBe(200);
      expectHidden((await getAs(caller)).body);
      expectHidden(await queryAs(caller));
      expect((await post(caller, `/api/table/${t1}/records/ids`, { where: { ref: t2rec1 } })).body).toEqual([]);
    });

    it('a record written by a caller who cannot see S2 answers with the T2 lookups empty', async () => {
      const response = await post(restrictedKey, `/api/table/${t1}/records/create`, { data: { name: 'mine', near: t3rec1 } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ ref: null, refs: [], near: { id: t3rec1, title: 'A-t3-rec1' } });
    });
  });

  describe('filters', () => {
    const idsAs = async (caller: Caller, where: object) => {
      const response = await post(caller, `/api/table/${t1}/records/ids`, { where });
      expect(response.status).toBe(200);
      return (response.body as number[]).filter((id) => id === linked || id === plain);
    };
    const countAs = async (caller: Caller, filters: object[]) => (await post(caller, `/api/table/${t1}/records/count`, { filters })).body.count as number;

    it.each(blindReaders)('$name: T2 lookups filter as empty, whichever record id is asked', async (caller) => {
      for (const id of [t2rec1, t2rec2, 999_999]) {
        expect(await idsAs(caller, { ref: id })).toEqual([]);
        expect(await idsAs(caller, { refs: id })).toEqual([]);
        expect(await idsAs(caller, { ref: ['!=', id] })).toEqual([linked, plain]);
        expect(await idsAs(caller, { refs: ['!=', { id }] })).toEqual([linked, plain]);
      }
      expect(await idsAs(caller, { ref: ['is_not_empty', null] })).toEqual([]);
      expect(await idsAs(caller, { refs: ['NEMPTY', null] })).toEqual([]);
      expect(await idsAs(caller, { ref: ['is_empty', null] })).toEqual([linked, plain]);
      expect(await idsAs(caller, { refs: null })).toEqual([linked, plain]);
      expect(await countAs(caller, [{ field: 'ref', compare: '=', value: t2rec1 }])).toBe(0);
      expect(await idsAs(caller, { near: t3rec1 })).toEqual([linked]);
      // A bad value is refused as for any lookup.
      expect((await post(caller, `/api/table/${t1}/records/ids`, { where: { ref: 'abc' } })).status).toBe(400);
    });

    it.each(seeingCallers)('$name: T2 lookups filter on their values', async (caller) => {
      // The count cache is warmed by a caller who cannot see S2 first.
      expect(await countAs(restrictedKey, [{ field: 'refs', compare: '=', value: t2rec2 }])).toBe(0);
      expect(await countAs(caller, [{ field: 'refs', compare: '=', value: t2rec2 }])).toBe(1);
      expect(await idsAs(caller, { ref: t2rec1 })).toEqual([linked]);
      expect(await idsAs(caller, { refs: t2rec2 })).toEqual([linked]);
      expect(await idsAs(caller, { ref: ['is_empty', null] })).toEqual([plain]);
    });
  });
});
