import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useSecondApp, useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type Response, type World } from '../factories.js';

/**
 * Records routes take the API key, the table with the caller's role, space members, the
 * account's users and lookup targets' title columns from a per-process cache, confirmed by the
 * database counter `metadata_version` (src/db/metadata-cache.ts). The risk guarded against:
 * process B changes metadata (revokes or rotates a key, removes a member, changes a role,
 * renames a user's email, switches a title field, adds or deletes a field) and process A,
 * whose cache is warm, answers with the old metadata.
 *
 * Every test (1) warms A's cache with successful calls through A, (2) changes metadata through
 * B, a second app on the same database (or through A itself in the same-process variants),
 * and (3) checks that A's very next answer reflects the change.
 */

const invalidKeyBody = { error: { code: 'invalid_api_key', message: 'Invalid API key' } };
const invalidTableBody = { error: { code: 'invalid_table', message: 'Invalid Table' } };
const readerRoleBody = { error: { code: 'reader_role', message: 'Readers cannot change records' } };

type Role = 'admin' | 'editor' | 'reader';

let emailCounter = 0;
const freshEmail = () => `renamed${process.pid}x${(emailCounter += 1)}@example.com`;

/** One records endpoint, called through a given process with a given key. */
interface Endpoint {
  name: string;
  write: boolean;
  send(target: TestContext, key: string, tableId: number, recordId: number): Promise<Response>;
}

const post = (target: TestContext, key: string, path: string, body: unknown) => call(target, 'POST', path, { key, body });
const getRecord = (target: TestContext, key: string, tableId: number, recordId: number) => call(target, 'GET', `/api/table/${tableId}/record/${recordId}/get`, { key });
const query = (target: TestContext, key: string, tableId: number, body: Record<string, unknown> = {}) => post(target, key, `/api/table/${tableId}/records/query`, body);
const count = (target: TestContext, key: string, tableId: number, body: Record<string, unknown> = {}) => post(target, key, `/api/table/${tableId}/records/count`, body);
const createRecord = (target: TestContext, key: string, tableId: number, data: Record<string, unknown>) => post(target, key, `/api/table/${tableId}/records/create`, { data });
const updateRecord = (target: TestContext, key: string, tableId: number, recordId: number, data: Record<string, unknown>) =>
  post(target, key, `/api/table/${tableId}/record/${recordId}/update`, { data });

let upserts = 0;
const endpoints: readonly Endpoint[] = [
  { name: 'records/create', write: true, send: (t, key, tid) => createRecord(t, key, tid, { name: 'created' }) },
  { name: 'record/get', write: false, send: (t, key, tid, rid) => getRecord(t, key, tid, rid) },
  { name: 'record/update', write: true, send: (t, key, tid, rid) => updateRecord(t, key, tid, rid, { name: 'updated' }) },
  { name: 'record/delete', write: true, send: (t, key, tid, rid) => post(t, key, `/api/table/${tid}/record/${rid}/delete`, {}) },
  { name: 'records/query', write: false, send: (t, key, tid) => query(t, key, tid, { limit: 1000 }) },
  { name: 'records/count', write: false, send: (t, key, tid) => count(t, key, tid) },
  { name: 'records/ids', write: false, send: (t, key, tid) => post(t, key, `/api/table/${tid}/records/ids`, {}) },
  { name: 'records/export', write: false, send: (t, key, tid) => post(t, key, `/api/table/${tid}/records/export`, { format: 'json' }) },
  { name: 'records/delete_batch', write: true, send: (t, key, tid, rid) => post(t, key, `/api/table/${tid}/records/delete_batch`, { record_ids: [rid] }) },
  { name: 'records/create_batch', write: true, send: (t, key, tid) => post(t, key, `/api/table/${tid}/records/create_batch`, { records: [{ data: { name: 'batched' } }] }) },
  // Writes nothing, but is refused as create_batch is (its checks are the write's).
  { name: 'records/validate_batch', write: true, send: (t, key, tid) => post(t, key, `/api/table/${tid}/records/validate_batch`, { records: [{ data: { name: 'checked' } }] }) },
  { name: 'records/update_batch', write: true, send: (t, key, tid, rid) => post(t, key, `/api/table/${tid}/records/update_batch`, { records: [{ id: rid, data: { name: 'batch updated' } }] }) },
  // A name of its own each time: an upsert matching two records would be refused.
  { name: 'records/upsert_batch', write: true, send: (t, key, tid) => post(t, key, `/api/table/${tid}/records/upsert_batch`, { match_on: ['name'], records: [{ data: { name: `upserted ${(upserts += 1)}` } }] }) },
];
const endpoint = (name: string) => endpoints.find((e) => e.name === name)!;
const readEndpoints = endpoints.filter((e) => !e.write);
const writeEndpoints = endpoints.filter((e) => e.write);

function expectOk(response: Response, what = ''): any {
  expect(response.status, `${what} ${JSON.stringify(response.body)}`).toBe(200);
  return response.body;
}

function expectError(response: Response, status: number, body: unknown): void {
  expect({ status: response.status, body: response.body }).toEqual({ status, body });
}

/** Warms A's cache for `key` on the table: a get, a query and a count, all answered 200. */
async function warm(target: TestContext, key: string, tableId: number, recordId: number): Promise<void> {
  expectOk(await getRecord(target, key, tableId, recordId), 'warm get');
  expectOk(await query(target, key, tableId), 'warm query');
  expectOk(await count(target, key, tableId), 'warm count');
}

describe('metadata cache: changes by another process show in the very next answer', () => {
  /** Process A: its cache is warmed, then it must notice every change. */
  const a = useTestApp();
  /** Process B: a second app on the same database, which makes the changes. */
  const b = useSecondApp(a);
  let world: World;
  let spaceId: number;

  const owner = () => world.accountKey;

  async function newTable(name: string, fields: unknown[]): Promise<number> {
    return (await createTable(a, world, spaceId, { name, fields })).id;
  }

  /** A record made with the owner's account key (record writes are data, not metadata). */
  async function seed(tableId: number, data: Record<string, unknown>): Promise<number> {
    return expectOk(await createRecord(a, owner(), tableId, data), 'seed').id;
  }

  const allIds = async (tableId: number) => expectOk(await post(a, owner(), `/api/table/${tableId}/records/ids`, {})) as number[];

  /** Adds the user to the space with `role` (an existing member's role changes) through `via`. */
  async function setRole(via: TestContext, userId: number, role: Role): Promise<void> {
    expectOk(await post(via, owner(), `/api/space/${spaceId}/members/add`, { user_id: userId, role }), `members/add ${role}`);
  }

  async function removeMember(via: TestContext, userId: number): Promise<void> {
    expect(expectOk(await post(via, owner(), `/api/space/${spaceId}/members/remove`, { user_id: userId }), 'members/remove')).toEqual({ user_id: userId, removed: true });
  }

  /** A user of the account (a member of the space with `role`, unless null) and a personal key. */
  async function personalKeyOf(role: Role | null): Promise<{ userId: number; key: string }> {
    const user = await createUser(a, world);
    if (role) await addMember(a, world, spaceId, user.id, role);
    return { userId: user.id, key: (await createKey(a, { userId: user.id })).key };
  }

  beforeAll(async () => {
    world = await createAccount(a);
    spaceId = (await createSpace(a, world, 'Metadata cache')).id;
  });

  describe('1. a revoked key answers 401 on every records endpoint', () => {
    let tableId: number;
    beforeAll(async () => {
      tableId = await newTable('Keys', [{ id: 'name', name: 'Name', type: 'text' }]);
    });

    for (const via of ['B', 'A'] as const) {
      for (const target of endpoints) {
        it(`revoked through ${via}: A answers 401 on ${target.name}`, async () => {
          const recordId = await seed(tableId, { name: 'kept' });
          const issued = await createKey(a, { accountId: world.accountId });
          await warm(a, issued.key, tableId, recordId);
          const idsBefore = await allIds(tableId);
          await (via === 'B' ? b : a).container.services.keys.revokeKey(issued.id);
          expectError(await target.send(a, issued.key, tableId, recordId), 401, invalidKeyBody);
          // The refused call changed nothing.
          expect(await allIds(tableId)).toEqual(idsBefore);
          expect(expectOk(await getRecord(a, owner(), tableId, recordId)).data).toEqual({ name: 'kept' });
        });
      }
    }
  });

  it('1b. revoked through B: A answers 401 on the writes that check the version in their own statement on PostgreSQL (a number updated, a record with a user field deleted), and writes nothing', async () => {
    const tableId = await newTable('Keys, one statement', [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'count', name: 'Count', type: 'number' },
      // A user field: a delete reads its record before its statement, and that read confirms the version.
      { id: 'owner', name: 'Owner', type: 'user' },
    ]);
    const recordId = await seed(tableId, { name: 'kept', count: 1, owner: world.ownerId });
    const kept = expectOk(await getRecord(a, owner(), tableId, recordId)).data;
    for (const write of [
      (key: string) => updateRecord(a, key, tableId, recordId, { count: 2 }),
      (key: string) => post(a, key, `/api/table/${tableId}/record/${recordId}/delete`, {}),
      (key: string) => createRecord(a, key, tableId, { count: 3 }),
    ]) {
      const issued = await createKey(a, { accountId: world.accountId });
      await warm(a, issued.key, tableId, recordId);
      await b.container.services.keys.revokeKey(issued.id);
      expectError(await write(issued.key), 401, invalidKeyBody);
      expect(await allIds(tableId)).toEqual([recordId]);
      expect(expectOk(await getRecord(a, owner(), tableId, recordId)).data).toEqual(kept);
    }
  });

  describe('2. a rotated key', () => {
    it('rotated through B: A refuses the old secret and takes the new one, again after a second rotation', async () => {
      const tableId = await newTable('Rotation', [{ id: 'name', name: 'Name', type: 'text' }]);
      const recordId = await seed(tableId, { name: 'r' });
      const issued = await createKey(a, { accountId: world.accountId });
      await warm(a, issued.key, tableId, recordId);

      const first = await b.container.services.keys.rotateKey(issued.id);
      expectError(await getRecord(a, issued.key, tableId, recordId), 401, invalidKeyBody);
      expectError(await query(a, issued.key, tableId), 401, invalidKeyBody);
      expect(expectOk(await getRecord(a, first.key, tableId, recordId)).data).toEqual({ name: 'r' });
      expectOk(await createRecord(a, first.key, tableId, { name: 'by new secret' }));

      // The new secret is now cached in A; a second rotation through B retires it at once.
      await warm(a, first.key, tableId, recordId);
      const second = await b.container.services.keys.rotateKey(issued.id);
      expectError(await count(a, first.key, tableId), 401, invalidKeyBody);
      expectError(await createRecord(a, first.key, tableId, { name: 'refused' }), 401, invalidKeyBody);
      expectOk(await count(a, second.key, tableId));
    });
  });

  describe('3. membership of a personal key changes', () => {
    let tableId: number;
    let recordId: number;
    let member: { userId: number; key: string };

    beforeAll(async () => {
      tableId = await newTable('Members', [{ id: 'name', name: 'Name', type: 'text' }]);
      recordId = await seed(tableId, { name: 'seen' });
      member = await personalKeyOf('editor');
    });

    /** The member as an editor, with A's cache warm for it (reads and a create). */
    async function warmEditor(via: TestContext) {
      await setRole(via, member.userId, 'editor');
      await warm(a, member.key, tableId, recordId);
      expectOk(await createRecord(a, member.key, tableId, { name: 'by editor' }), 'warm create');
    }

    for (const via of ['B', 'A'] as const) {
      for (const target of readEndpoints.filter((e) => e.name !== 'records/ids')) {
        it(`member removed through ${via}: A answers Invalid Table on ${target.name}`, async () => {
          const changer = via === 'B' ? b : a;
          await warmEditor(changer);
          await removeMember(changer, member.userId);
          expectError(await target.send(a, member.key, tableId, recordId), 400, invalidTableBody);
        });
      }
    }

    it('removed through B: every records endpoint through A answers Invalid Table', async () => {
      await warmEditor(b);
      await removeMember(b, member.userId);
      for (const target of endpoints) expectError(await target.send(a, member.key, tableId, recordId), 400, invalidTableBody);
    });

    it('re-added through B as reader: A answers reads 200 and writes 403', async () => {
      await warmEditor(b);
      await removeMember(b, member.userId);
      expectError(await getRecord(a, member.key, tableId, recordId), 400, invalidTableBody);
      expectError(await query(a, member.key, tableId), 400, invalidTableBody);
      await setRole(b, member.userId, 'reader');
      expect(expectOk(await getRecord(a, member.key, tableId, recordId)).data).toEqual({ name: 'seen' });
      for (const target of readEndpoints) expectOk(await target.send(a, member.key, tableId, recordId), target.name);
      const idsBefore = await allIds(tableId);
      for (const target of writeEndpoints) {
        const response = await target.send(a, member.key, tableId, recordId);
        expect(response.status, `${target.name} ${JSON.stringify(response.body)}`).toBe(403);
        expect(response.body).toEqual(readerRoleBody);
      }
      expect(await allIds(tableId)).toEqual(idsBefore);
    });

    for (const target of writeEndpoints) {
      it(`role lowered from editor to reader through B: A refuses ${target.name} with 403`, async () => {
        await warmEditor(b);
        const victim = await seed(tableId, { name: 'victim' });
        await setRole(b, member.userId, 'reader');
        expectError(await target.send(a, member.key, tableId, victim), 403, readerRoleBody);
        expect(expectOk(await getRecord(a, owner(), tableId, victim)).data).toEqual({ name: 'victim' });
      });
    }

    for (const target of writeEndpoints) {
      it(`role raised from reader to editor through B: A accepts ${target.name}`, async () => {
        await setRole(b, member.userId, 'reader');
        const victim = await seed(tableId, { name: 'victim' });
        await warm(a, member.key, tableId, victim);
        expectError(await createRecord(a, member.key, tableId, { name: 'refused' }), 403, readerRoleBody);
        await setRole(b, member.userId, 'editor');
        expectOk(await target.send(a, member.key, tableId, victim), target.name);
      });
    }
  });

  describe('4. a cached "no role" does not stick', () => {
    let tableId: number;
    let recordId: number;
    beforeAll(async () => {
      tableId = await newTable('Newcomers', [{ id: 'name', name: 'Name', type: 'text' }]);
      recordId = await seed(tableId, { name: 'welcome' });
    });

    for (const target of [...readEndpoints, endpoint('records/create')]) {
      it(`a user added through B after A answered Invalid Table: A answers ${target.name}`, async () => {
        const newcomer = await personalKeyOf(null);
        expectError(await getRecord(a, newcomer.key, tableId, recordId), 400, invalidTableBody);
        expectError(await query(a, newcomer.key, tableId), 400, invalidTableBody);
        expectError(await count(a, newcomer.key, tableId), 400, invalidTableBody);
        await setRole(b, newcomer.userId, target.write ? 'editor' : 'reader');
        expectOk(await target.send(a, newcomer.key, tableId, recordId), target.name);
      });
    }
  });

  describe('5. a user field after the user\'s email changes', () => {
    let tableId: number;
    let recordId: number;
    let user: { id: number; email: string; name: string };

    beforeAll(async () => {
      tableId = await newTable('Assignments', [
        { id: 'name', name: 'Name', type: 'text' },
        { id: 'owner', name: 'Owner', type: 'user' },
      ]);
      const created = await createUser(a, world, 'Assignee');
      user = { id: created.id, email: created.email, name: created.name };
      await addMember(a, world, spaceId, user.id, 'editor');
      recordId = await seed(tableId, { name: 'task', owner: user.id });
    });

    /** Warms the account's users (reads) and the space's members (a write by email) in A. */
    async function warmUsers() {
      expect(expectOk(await getRecord(a, owner(), tableId, recordId)).data.owner).toEqual(user);
      expectOk(await query(a, owner(), tableId));
      expect(expectOk(await createRecord(a, owner(), tableId, { name: 'warm', owner: user.email })).data.owner).toEqual(user);
      expectOk(await query(a, owner(), tableId, { where: { owner: user.email } }));
    }

    /** Changes the user's email through B; answers the old one. */
    async function renameThroughB(): Promise<string> {
      const old = user.email;
      const email = freshEmail();
      expect(await b.container.services.users.updateUser(user.id, { email })).toEqual({ ...user, email });
      user = { ...user, email };
      return old;
    }

    it('A get shows the new email', async () => {
      await warmUsers();
      await renameThroughB();
      expect(expectOk(await getRecord(a, owner(), tableId, recordId)).data.owner).toEqual(user);
    });

    it('A query shows the new email', async () => {
      await warmUsers();
      await renameThroughB();
      const rows = expectOk(await query(a, owner(), tableId, { limit: 1000 })) as Array<{ id: number; data: { owner: unknown } }>;
      expect(rows.find((row) => row.id === recordId)?.data.owner).toEqual(user);
    });

    it('A filters by the new email', async () => {
      await warmUsers();
      await renameThroughB();
      const rows = expectOk(await query(a, owner(), tableId, { where: { owner: user.email }, limit: 1000 })) as Array<{ id: number }>;
      expect(rows.map((row) => row.id)).toContain(recordId);
    });

    it('A creates a record with the user given by the new email', async () => {
      await warmUsers();
      await renameThroughB();
      expect(expectOk(await createRecord(a, owner(), tableId, { name: 'new email', owner: user.email })).data.owner).toEqual(user);
    });

    it('A refuses a create with the user given by the old email', async () => {
      await warmUsers();
      const idsBefore = await allIds(tableId);
      const old = await renameThroughB();
      expectError(await createRecord(a, owner(), tableId, { name: 'old email', owner: old }), 400, {
        error: { code: 'invalid_field_value', message: `Invalid value for field owner: ${JSON.stringify(old)} is not a member of this space` },
      });
      expect(await allIds(tableId)).toEqual(idsBefore);
    });
  });

  describe('6. lookup titles', () => {
    /** A target table (title field `name` by default) and a source table pointing at one of its records. */
    async function lookupPair() {
      const targetId = await newTable('Targets', [
        { id: 'name', name: 'Name', type: 'text' },
        { id: 'code', name: 'Code', type: 'text' },
      ]);
      const sourceId = await newTable('Sources', [
        { id: 'label', name: 'Label', type: 'text' },
        { id: 'ref', name: 'Ref', type: 'lookup', table_id: targetId },
        { id: 'refs', name: 'Refs', type: 'lookup', multiple: true, table_id: targetId },
      ]);
      const targetRecord = await seed(targetId, { name: 'Alpha', code: 'A-1' });
      const sourceRecord = await seed(sourceId, { label: 'source', ref: targetRecord, refs: [targetRecord] });
      return { targetId, sourceId, targetRecord, sourceRecord };
    }

    /** The `ref` and `refs` values through A's get and query of the source record. */
    const lookupsByGet = async (pair: Awaited<ReturnType<typeof lookupPair>>) => {
      const { data } = expectOk(await getRecord(a, owner(), pair.sourceId, pair.sourceRecord));
      return { ref: data.ref, refs: data.refs };
    };
    const lookupsByQuery = async (pair: Awaited<ReturnType<typeof lookupPair>>) => {
      const [row] = expectOk(await query(a, owner(), pair.sourceId, { where: { label: 'source' } }));
      return { ref: row.data.ref, refs: row.data.refs };
    };
    const titled = (id: number, title: string | null) => ({ ref: { id, title }, refs: [{ id, title }] });

    async function warmLookups(pair: Awaited<ReturnType<typeof lookupPair>>, title: string) {
      expect(await lookupsByGet(pair)).toEqual(titled(pair.targetRecord, title));
      expect(await lookupsByQuery(pair)).toEqual(titled(pair.targetRecord, title));
    }

    it("the target record's title text changed through B: A's get shows the new title", async () => {
      const pair = await lookupPair();
      await warmLookups(pair, 'Alpha');
      expectOk(await updateRecord(b, owner(), pair.targetId, pair.targetRecord, { name: 'Beta' }));
      expect(await lookupsByGet(pair)).toEqual(titled(pair.targetRecord, 'Beta'));
      expect(await lookupsByQuery(pair)).toEqual(titled(pair.targetRecord, 'Beta'));
    });

    it("the target table's title field switched through B: A's get, then A's query, show the new title", async () => {
      const pair = await lookupPair();
      await warmLookups(pair, 'Alpha');
      expect(expectOk(await post(b, owner(), `/api/table/${pair.targetId}/update`, { title_field: 'code' })).title_field).toBe('code');
      expect(await lookupsByGet(pair)).toEqual(titled(pair.targetRecord, 'A-1'));
      // And back to the default title field (the first text field), checked first by a query.
      await warmLookups(pair, 'A-1');
      expect(expectOk(await post(b, owner(), `/api/table/${pair.targetId}/update`, { title_field: null })).title_field).toBe('name');
      expect(await lookupsByQuery(pair)).toEqual(titled(pair.targetRecord, 'Alpha'));
    });

    it("the target record deleted through B: A's get shows the single lookup as null", async () => {
      const pair = await lookupPair();
      await warmLookups(pair, 'Alpha');
      expectOk(await post(b, owner(), `/api/table/${pair.targetId}/record/${pair.targetRecord}/delete`, {}));
      expect(await lookupsByGet(pair)).toEqual({ ref: null, refs: [] });
    });
  });

  describe('7. fields added and deleted', () => {
    let tableId: number;
    let recordId: number;

    beforeAll(async () => {
      tableId = await newTable('Evolving', [{ id: 'name', name: 'Name', type: 'text' }]);
      recordId = await seed(tableId, { name: 'first' });
    });

    const warmFields = async () => {
      await warm(a, owner(), tableId, recordId);
      expectOk(await query(a, owner(), tableId, { where: { name: 'first' } }));
    };
    const addField = async (via: TestContext, definition: Record<string, unknown>) => expectOk(await post(via, owner(), `/api/table/${tableId}/fields/create`, definition), 'fields/create');
    const deleteField = async (via: TestContext, slug: string) => expectOk(await post(via, owner(), `/api/table/${tableId}/field/${slug}/delete`, {}), 'field delete');

    it('a field added through B: A filters on it at once, then writes it', async () => {
      await warmFields();
      await addField(b, { id: 'priority', name: 'Priority', type: 'number' });
      const rows = expectOk(await query(a, owner(), tableId, { where: { priority: null }, limit: 1000 })) as Array<{ id: number; data: Record<string, unknown> }>;
      expect(rows.find((row) => row.id === recordId)?.data).toEqual({ name: 'first', priority: null });
      expect(expectOk(await updateRecord(a, owner(), tableId, recordId, { priority: 5 })).data).toEqual({ name: 'first', priority: 5 });
      expect((expectOk(await query(a, owner(), tableId, { where: { priority: 5 } })) as Array<{ id: number }>).map((row) => row.id)).toEqual([recordId]);
    });

    it('a field added through B: A counts with a filter on it at once', async () => {
      await warmFields();
      await addField(b, { id: 'flag', name: 'Flag', type: 'checkbox' });
      expect(expectOk(await count(a, owner(), tableId, { where: { flag: true } }))).toMatchObject({ count: 0, restricted: true });
    });

    it('a field added through B: A creates a record with it at once', async () => {
      await warmFields();
      await addField(b, { id: 'stage', name: 'Stage', type: 'text' });
      const created = expectOk(await createRecord(a, owner(), tableId, { name: 'second', stage: 'draft' }));
      expect(created.data).toMatchObject({ name: 'second', stage: 'draft' });
    });

    it('a field added through B: A updates it at once', async () => {
      await warmFields();
      await addField(b, { id: 'score', name: 'Score', type: 'number' });
      expect(expectOk(await updateRecord(a, owner(), tableId, recordId, { score: 3 })).data).toMatchObject({ score: 3 });
    });

    it('a field added through B: A get lists it at once', async () => {
      await warmFields();
      await addField(b, { id: 'extra', name: 'Extra', type: 'text' });
      expect(expectOk(await getRecord(a, owner(), tableId, recordId)).data).toHaveProperty('extra', null);
    });

    /** A field `slug` made through A with a value in the record, and A's cache warm with it and a filter on it. */
    async function doomedField(slug: string) {
      await addField(a, { id: slug, name: slug, type: 'text' });
      expectOk(await updateRecord(a, owner(), tableId, recordId, { [slug]: 'doomed value' }));
      await warmFields();
      expect(expectOk(await getRecord(a, owner(), tableId, recordId)).data).toHaveProperty(slug, 'doomed value');
      expect(expectOk(await query(a, owner(), tableId, { where: { [slug]: 'doomed value' } }))).toHaveLength(1);
    }

    it("a field deleted through B: A's get no longer lists it", async () => {
      await doomedField('doomed_get');
      await deleteField(b, 'doomed_get');
      expect(expectOk(await getRecord(a, owner(), tableId, recordId)).data).not.toHaveProperty('doomed_get');
    });

    it("a field deleted through B: A's query no longer lists it", async () => {
      await doomedField('doomed_query');
      await deleteField(b, 'doomed_query');
      const rows = expectOk(await query(a, owner(), tableId, { limit: 1000 })) as Array<{ id: number; data: Record<string, unknown> }>;
      expect(rows.find((row) => row.id === recordId)?.data).not.toHaveProperty('doomed_query');
    });

    it('a field deleted through B: a filter on it through A answers 400', async () => {
      await doomedField('doomed_filter');
      await deleteField(b, 'doomed_filter');
      const unknown = { error: { code: 'invalid_filter', message: 'Invalid filter: unknown field "doomed_filter"' } };
      expectError(await query(a, owner(), tableId, { where: { doomed_filter: 'doomed value' } }), 400, unknown);
      expectError(await count(a, owner(), tableId, { where: { doomed_filter: 'doomed value' } }), 400, unknown);
    });

    it('a field deleted through B: a count with a filter on it through A answers 400', async () => {
      await doomedField('doomed_count');
      await deleteField(b, 'doomed_count');
      expectError(await count(a, owner(), tableId, { where: { doomed_count: 'doomed value' } }), 400, {
        error: { code: 'invalid_filter', message: 'Invalid filter: unknown field "doomed_count"' },
      });
    });

    it("a field deleted through A itself: A's get no longer lists it", async () => {
      await doomedField('doomed_same');
      await deleteField(a, 'doomed_same');
      expect(expectOk(await getRecord(a, owner(), tableId, recordId)).data).not.toHaveProperty('doomed_same');
    });

    it('a field added through B: A writes it at once with create_batch, update_batch and upsert_batch', async () => {
      await warmFields();
      expectOk(await post(a, owner(), `/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'warm batch' } }] }), 'warm create_batch');
      await addField(b, { id: 'batched', name: 'Batched', type: 'text' });
      const created = expectOk(await post(a, owner(), `/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'batch', batched: 'one' } }] }));
      expect(created[0].data).toMatchObject({ name: 'batch', batched: 'one' });
      const updated = expectOk(await post(a, owner(), `/api/table/${tableId}/records/update_batch`, { records: [{ id: recordId, data: { batched: 'two' } }] }));
      expect(updated[0].data).toMatchObject({ name: 'first', batched: 'two' });
      const upserted = expectOk(await post(a, owner(), `/api/table/${tableId}/records/upsert_batch`, { match_on: ['batched'], records: [{ data: { batched: 'two', name: 'matched' } }] }));
      expect(upserted[0]).toMatchObject({ id: recordId, data: { name: 'matched', batched: 'two' } });
      expectOk(await updateRecord(a, owner(), tableId, recordId, { name: 'first' }));
    });

    it('a field deleted through B: create_batch, update_batch and upsert_batch of it through A answer 400 naming the record', async () => {
      await doomedField('doomed_batch');
      expectOk(await post(a, owner(), `/api/table/${tableId}/records/create_batch`, { records: [{ data: { doomed_batch: 'warm' } }] }), 'warm create_batch');
      await deleteField(b, 'doomed_batch');
      const idsBefore = await allIds(tableId);
      expectError(await post(a, owner(), `/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'fine' } }, { data: { doomed_batch: 'again' } }] }), 400, {
        error: { code: 'invalid_field', message: 'records[1]: Invalid field: doomed_batch' },
      });
      expectError(await post(a, owner(), `/api/table/${tableId}/records/update_batch`, { records: [{ id: recordId, data: { doomed_batch: 'again' } }] }), 400, {
        error: { code: 'invalid_field', message: 'records[0]: Invalid field: doomed_batch' },
      });
      expectError(await post(a, owner(), `/api/table/${tableId}/records/upsert_batch`, { match_on: ['doomed_batch'], records: [{ data: { doomed_batch: 'doomed value' } }] }), 400, {
        error: { code: 'invalid_field', message: 'Invalid field: doomed_batch' },
      });
      expect(await allIds(tableId)).toEqual(idsBefore);
    });

    // validate_batch collects refusals rather than throwing the first: it must still see stale metadata.
    it('a field added through B: validate_batch through A takes it at once', async () => {
      await warmFields();
      expect(expectOk(await post(a, owner(), `/api/table/${tableId}/records/validate_batch`, { records: [{ data: { name: 'warm' } }] }), 'warm validate_batch')).toEqual({ errors: [] });
      await addField(b, { id: 'validated', name: 'Validated', type: 'text' });
      expect(expectOk(await post(a, owner(), `/api/table/${tableId}/records/validate_batch`, { records: [{ data: { name: 'fine', validated: 'one' } }] }))).toEqual({ errors: [] });
    });

    it('a field deleted through B: validate_batch of it through A names the record', async () => {
      await doomedField('doomed_validate');
      expect(expectOk(await post(a, owner(), `/api/table/${tableId}/records/validate_batch`, { records: [{ data: { doomed_validate: 'warm' } }] }), 'warm validate_batch')).toEqual({ errors: [] });
      await deleteField(b, 'doomed_validate');
      expect(expectOk(await post(a, owner(), `/api/table/${tableId}/records/validate_batch`, { records: [{ data: { name: 'fine' } }, { data: { doomed_validate: 'again' } }] }))).toEqual({
        errors: [{ index: 1, code: 'invalid_field', message: 'Invalid field: doomed_validate' }],
      });
    });

    it('a field deleted through B: a write of it through A answers 400 Invalid field', async () => {
      await doomedField('doomed_write');
      await deleteField(b, 'doomed_write');
      expectError(await updateRecord(a, owner(), tableId, recordId, { doomed_write: 'again' }), 400, {
        error: { code: 'invalid_field', message: 'Invalid field: doomed_write' },
      });
    });
  });

  const metadataVersion = async () => {
    const { rows } = await sql<{ version: number | string }>`select version from metadata_version where id = 1`.execute(a.container.database.db);
    return Number(rows[0].version);
  };

  describe('8. the metadata version', () => {

    /** Runs `change` and answers the metadata version before and after it. */
    async function around(change: () => Promise<unknown>): Promise<[number, number]> {
      const before = await metadataVersion();
      await change();
      return [before, await metadataVersion()];
    }

    it('grows with every metadata change, through either process', async () => {
      const tableId = await newTable('Versioned', [{ id: 'name', name: 'Name', type: 'text' }]);
      const user = await createUser(a, world);
      const issued = await createKey(a, { accountId: world.accountId });
      const changes: Array<[string, () => Promise<unknown>]> = [
        ['member add', () => addMember(b, world, spaceId, user.id, 'reader')],
        ['member role change', () => setRole(a, user.id, 'editor')],
        ['member remove', () => removeMember(b, user.id)],
        ['key revoke', () => b.container.services.keys.revokeKey(issued.id)],
        ['field create', async () => expectOk(await post(b, owner(), `/api/table/${tableId}/fields/create`, { id: 'more', name: 'More', type: 'text' }))],
        ['field delete', async () => expectOk(await post(a, owner(), `/api/table/${tableId}/field/more/delete`, {}))],
        ['table update', async () => expectOk(await post(b, owner(), `/api/table/${tableId}/update`, { name: 'Versioned again' }))],
        ['user update', () => a.container.services.users.updateUser(user.id, { name: 'Renamed' })],
      ];
      for (const [name, change] of changes) {
        const [before, after] = await around(change);
        expect(after, name).toBeGreaterThan(before);
      }
    });

    it('does not change with record creates, updates and deletes', async () => {
      const tableId = await newTable('Unversioned', [{ id: 'name', name: 'Name', type: 'text' }]);
      let recordId = 0;
      const writes: Array<[string, () => Promise<unknown>]> = [
        ['create', async () => (recordId = await seed(tableId, { name: 'x' }))],
        ['create through B', () => createRecord(b, owner(), tableId, { name: 'y' }).then((r) => expectOk(r))],
        ['update', () => updateRecord(a, owner(), tableId, recordId, { name: 'z' }).then((r) => expectOk(r))],
        ['reads', () => warm(a, owner(), tableId, recordId)],
        ['delete', () => post(b, owner(), `/api/table/${tableId}/record/${recordId}/delete`, {}).then((r) => expectOk(r))],
        ['delete_batch', async () => expectOk(await post(a, owner(), `/api/table/${tableId}/records/delete_batch`, { record_ids: await allIds(tableId) }))],
      ];
      for (const [name, write] of writes) {
        const [before, after] = await around(write);
        expect(after, name).toBe(before);
      }
    });
  });

  /**
   * Proof that the tests above go through the cache: a key revoked behind the triggers' back
   * (the counter put back as it was) is still taken by A's records routes, while a route that
   * reads the key from the database refuses it. The next metadata change retires the entry.
   * Last in the file, as it winds the counter back.
   */
  it('the cache is really on the path: only the metadata version retires an entry', async () => {
    const tableId = await newTable('Hidden revocation', [{ id: 'name', name: 'Name', type: 'text' }]);
    const recordId = await seed(tableId, { name: 'r' });
    const issued = await createKey(a, { accountId: world.accountId });
    await warm(a, issued.key, tableId, recordId);
    const { db } = a.container.database;
    const version = await metadataVersion();
    await db.updateTable('api_keys').set({ revoked_at: '2024-01-01 00:00:00' }).where('id', '=', issued.id).execute();
    await sql`update metadata_version set version = ${version} where id = 1`.execute(db);
    expectOk(await getRecord(a, issued.key, tableId, recordId), 'cached key');
    expectError(await call(a, 'GET', '/api/spaces/list', { key: issued.key }), 401, invalidKeyBody);
    // Any metadata change, here through B, retires it.
    expectOk(await post(b, owner(), `/api/table/${tableId}/update`, { name: 'Hidden revocation, seen' }));
    expectError(await getRecord(a, issued.key, tableId, recordId), 401, invalidKeyBody);
  });
});
