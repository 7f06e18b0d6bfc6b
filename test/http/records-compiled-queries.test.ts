import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, login, type World } from '../factories.js';

/**
 * A query's compiled conditions are kept per table fields when compiling them consulted nothing
 * else (record-queries.ts, compileQuery). What they may not keep: the day a date token means,
 * who `@me` is, whom an email names, which tables the caller sees. Each test asks the same
 * query before and after such a change and expects the answer of the moment.
 */
describe('compiled queries', () => {
  let nowMs = Date.parse('2024-05-01T10:00:00Z');
  const ctx = useTestApp({ clock: { now: () => new Date(nowMs) } });
  let world: World;
  let spaceId: number;
  let tableId: number;

  /** `auth`: an API key, or a session's cookie (`tabula_session=…`). */
  async function ok(auth: string, path: string, body: unknown) {
    const response = await call(ctx, 'POST', path, auth.startsWith('tabula_session=') ? { cookie: auth, body } : { key: auth, body });
    expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  }
  const count = async (body: unknown, key = world.accountKey, table = tableId) => (await ok(key, `/api/table/${table}/records/count`, body)).count as number;
  const ids = async (body: unknown, key = world.accountKey, table = tableId) => (await ok(key, `/api/table/${table}/records/ids`, body)) as number[];
  const create = async (data: Record<string, unknown>, table = tableId) => (await ok(world.accountKey, `/api/table/${table}/records/create`, { data })).id as number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Compiled')).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Tasks',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'due', name: 'Due', type: 'date' },
          { id: 'owner', name: 'Owner', type: 'user' },
        ],
      })
    ).id;
  });

  it('a date token means the day of the request: the clock moves, the same query follows', async () => {
    const first = await create({ name: 'first', due: '2024-05-01' });
    const second = await create({ name: 'second', due: '2024-05-02' });
    const third = await create({ name: 'third', due: '2024-05-02' });
    const today = { where: { due: 'today' } };
    for (let round = 0; round < 2; round += 1) {
      expect(await count(today)).toBe(1);
      expect(await ids(today)).toEqual([first]);
    }
    nowMs = Date.parse('2024-05-02T00:00:01Z');
    expect(await count(today)).toBe(2);
    expect(await ids(today)).toEqual([second, third]);
    nowMs = Date.parse('2024-05-03T10:00:00Z');
    expect(await count(today)).toBe(0);
  });

  it('@me is each caller: the same query asked by two users counts each one\'s records', async () => {
    const ann = await createUser(ctx, world, 'Ann');
    const bob = await createUser(ctx, world, 'Bob');
    await addMember(ctx, world, spaceId, ann.id, 'editor');
    await addMember(ctx, world, spaceId, bob.id, 'editor');
    const annKey = (await createKey(ctx, { userId: ann.id })).key;
    const bobKey = (await createKey(ctx, { userId: bob.id })).key;
    await create({ name: 'ann 1', owner: ann.id });
    await create({ name: 'bob 1', owner: bob.id });
    await create({ name: 'bob 2', owner: bob.id });
    const mine = { where: { owner: '@me' } };
    for (let round = 0; round < 2; round += 1) {
      expect(await count(mine, annKey)).toBe(1);
      expect(await count(mine, bobKey)).toBe(2);
      expect(await count(mine)).toBe(0);
    }
  });

  it('an email names whoever holds it now: a user made after the first query is found by the next', async () => {
    const email = `later-${process.pid}@example.com`;
    const theirs = { where: { owner: email } };
    expect(await count(theirs)).toBe(0);
    expect(await ids(theirs)).toEqual([]);
    const later = await ctx.container.services.users.createUser(world.accountId, { email, name: 'Later', password: 'later-password' });
    await addMember(ctx, world, spaceId, later.id, 'editor');
    const id = await create({ name: 'later 1', owner: later.id });
    expect(await count(theirs)).toBe(1);
    expect(await ids(theirs)).toEqual([id]);
  });

  it('a lookup filters as empty once its caller no longer sees the target table', async () => {
    const otherSpace = (await createSpace(ctx, world, 'Elsewhere')).id;
    const target = (await createTable(ctx, world, otherSpace, { name: 'Targets', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    const targetRecord = await create({ name: 'target' }, target);
    const source = (await createTable(ctx, world, spaceId, { name: 'Sources', fields: [{ id: 'ref', name: 'Ref', type: 'lookup', table_id: target }] })).id;
    const linked = await create({ ref: targetRecord }, source);
    await create({ ref: null }, source);
    const admin = await createUser(ctx, world, 'Admin of both');
    await addMember(ctx, world, spaceId, admin.id, 'admin');
    await addMember(ctx, world, otherSpace, admin.id, 'admin');
    const adminKey = (await createKey(ctx, { userId: admin.id })).key;
    const pointing = { where: { ref: targetRecord } };
    for (let round = 0; round < 2; round += 1) {
      expect(await count(pointing, adminKey, source)).toBe(1);
      expect(await ids(pointing, adminKey, source)).toEqual([linked]);
    }
    await ok(world.accountKey, `/api/space/${otherSpace}/members/remove`, { user_id: admin.id });
    expect(await count(pointing, adminKey, source)).toBe(0);
    expect(await ids(pointing, adminKey, source)).toEqual([]);
    expect(await count({ where: { ref: null } }, adminKey, source)).toBe(2);
  });

  it('a view\'s filters are read at each request: an edit of the view shows in the next count', async () => {
    const session = await login(ctx, world.ownerEmail, world.ownerPassword);
    const view = await ok(session, `/api/table/${tableId}/views/create`, { name: 'Firsts', type: 'grid', filters: [{ column: 'name', compare: '=', value: 'first' }] });
    expect(await count({ view_id: view.id })).toBe(1);
    await ok(session, `/api/table/${tableId}/view/${view.id}/update`, { filters: [{ column: 'name', compare: 'SW', value: 'bob' }] });
    expect(await count({ view_id: view.id })).toBe(2);
  });

  it('a search page alone keeps its own limit and offset', async () => {
    const pageOf = async (offset: number) => (await ok(world.accountKey, `/api/table/${tableId}/records/query`, { search: 'bob', limit: 1, offset, fields: ['name'] })).map((r: { data: { name: string } }) => r.data.name);
    expect(await pageOf(0)).toEqual(['bob 1']);
    expect(await pageOf(1)).toEqual(['bob 2']);
    expect(await pageOf(0)).toEqual(['bob 1']);
  });
});
