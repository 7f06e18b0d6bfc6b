import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createKey, createSpace, createUser, type World } from '../factories.js';

const userNotFound = { error: { code: 'user_not_found', message: 'User not found' } };
const memberNotFound = { error: { code: 'member_not_found', message: 'Member not found' } };

describe('space members', () => {
  const ctx = useTestApp();
  let world: World;
  let other: World;
  beforeAll(async () => {
    world = await createAccount(ctx);
    other = await createAccount(ctx);
  });

  const post = (url: string, body?: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const list = async (spaceId: number) => (await call(ctx, 'GET', `/api/space/${spaceId}/members/list`, { key: world.accountKey })).body;
  const add = (spaceId: number, body: unknown) => post(`/api/space/${spaceId}/members/add`, body);
  const remove = (spaceId: number, userId: unknown) => post(`/api/space/${spaceId}/members/remove`, { user_id: userId });

  it('adds a member by user_id and answers {user_id, email, name, role}', async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world, 'Grace Hopper');
    const response = await add(space.id, { user_id: user.id, role: 'editor' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user_id: user.id, email: user.email, name: 'Grace Hopper', role: 'editor' });
  });

  it('adds a member by email, in any letter case', async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world, 'Alan Turing');
    const response = await add(space.id, { email: ` ${user.email.toUpperCase()} `, role: 'reader' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user_id: user.id, email: user.email, name: 'Alan Turing', role: 'reader' });
  });

  it('lists members as [{user_id, email, name, role}] in user id order, without the owner', async () => {
    const space = await createSpace(ctx, world);
    const first = await createUser(ctx, world, 'First');
    const second = await createUser(ctx, world, 'Second');
    await add(space.id, { user_id: second.id, role: 'admin' });
    await add(space.id, { user_id: first.id, role: 'reader' });
    expect(await list(space.id)).toEqual([
      { user_id: first.id, email: first.email, name: 'First', role: 'reader' },
      { user_id: second.id, email: second.email, name: 'Second', role: 'admin' },
    ]);
  });

  it('answers an empty list for a space without members', async () => {
    const space = await createSpace(ctx, world);
    expect(await list(space.id)).toEqual([]);
  });

  it('changes the role when the member is added again, keeping one entry', async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world, 'Promoted');
    await add(space.id, { user_id: user.id, role: 'reader' });
    const response = await add(space.id, { email: user.email, role: 'admin' });
    expect(response.body.role).toBe('admin');
    expect(await list(space.id)).toEqual([{ user_id: user.id, email: user.email, name: 'Promoted', role: 'admin' }]);
  });

  it('gives the role effect at once: a reader may not create tables, the same user as admin may', async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world);
    const key = await createKey(ctx, { userId: user.id });
    const createTable = () => call(ctx, 'POST', `/api/space/${space.id}/tables/create`, { key: key.key, body: { name: 'By member' } });
    expect((await createTable()).status).toBe(404);
    await add(space.id, { user_id: user.id, role: 'reader' });
    expect((await createTable()).status).toBe(403);
    await add(space.id, { user_id: user.id, role: 'admin' });
    expect((await createTable()).status).toBe(200);
  });

  it('removes a member, answering {user_id, removed:true}; the user then no longer sees the space', async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world);
    const key = await createKey(ctx, { userId: user.id });
    await add(space.id, { user_id: user.id, role: 'editor' });
    expect((await call(ctx, 'GET', `/api/space/${space.id}/get`, { key: key.key })).status).toBe(200);

    const response = await remove(space.id, user.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user_id: user.id, removed: true });
    expect(await list(space.id)).toEqual([]);
    const after = await call(ctx, 'GET', `/api/space/${space.id}/get`, { key: key.key });
    expect({ status: after.status, body: after.body }).toEqual({ status: 404, body: { error: { code: 'space_not_found', message: 'Space not found' } } });
  });

  it('removes the membership of one space only', async () => {
    const kept = await createSpace(ctx, world);
    const left = await createSpace(ctx, world);
    const user = await createUser(ctx, world);
    await add(kept.id, { user_id: user.id, role: 'editor' });
    await add(left.id, { user_id: user.id, role: 'editor' });
    await remove(left.id, user.id);
    expect((await list(kept.id)).map((m: { user_id: number }) => m.user_id)).toEqual([user.id]);
  });

  it('answers 404 Member not found when removing a user who is not a member (or no longer one)', async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world);
    const never = await remove(space.id, user.id);
    expect({ status: never.status, body: never.body }).toEqual({ status: 404, body: memberNotFound });
    await add(space.id, { user_id: user.id, role: 'reader' });
    await remove(space.id, user.id);
    const twice = await remove(space.id, user.id);
    expect({ status: twice.status, body: twice.body }).toEqual({ status: 404, body: memberNotFound });
  });

  it('answers 404 Member not found for the owner, who is an admin of every space without being listed', async () => {
    const space = await createSpace(ctx, world);
    const response = await remove(space.id, world.ownerId);
    expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: memberNotFound });
  });

  it('answers a user of another account exactly like one that does not exist (404 User not found), by id and by email', async () => {
    const space = await createSpace(ctx, world);
    const outsider = await createUser(ctx, other, 'Outsider');
    const responses = [
      await add(space.id, { user_id: outsider.id, role: 'reader' }),
      await add(space.id, { email: outsider.email, role: 'reader' }),
      await add(space.id, { user_id: other.ownerId, role: 'admin' }),
      await add(space.id, { user_id: 2_000_000_000, role: 'reader' }),
      await add(space.id, { email: 'nobody-at-all@example.com', role: 'reader' }),
    ];
    for (const response of responses) expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: userNotFound });
    expect(await list(space.id)).toEqual([]);
  });

  it('refuses a role other than admin, editor or reader with 400 naming role', async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world);
    for (const role of ['owner', 'Admin', '', 1, null]) {
      const response = await add(space.id, { user_id: user.id, role });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'invalid_parameters', message: 'Invalid parameters: role must be equal to one of the allowed values' } });
    }
    const missing = await add(space.id, { user_id: user.id });
    expect(missing.body).toEqual({ error: { code: 'invalid_parameters', message: 'Invalid parameters: role is required' } });
    expect(await list(space.id)).toEqual([]);
  });

  it('refuses an add naming no user with 400', async () => {
    const space = await createSpace(ctx, world);
    const response = await add(space.id, { role: 'reader' });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { error: { code: 'invalid_parameters', message: 'Invalid parameters: user_id or email is required' } },
    });
  });

  it('refuses malformed user ids and unknown properties with 400', async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world);
    // `user_id: 0` is an integer no user has: 404 `User not found`, like any missing user (shared/ids.ts).
    const cases: unknown[] = [
      { user_id: 1.5, role: 'reader' },
      { user_id: String(user.id), role: 'reader' },
      { user_id: user.id, role: 'reader', admin: true },
    ];
    for (const body of cases) {
      const response = await add(space.id, body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_parameters');
    }
    for (const body of [{}, { user_id: 'abc' }, { user_id: user.id, extra: 1 }]) {
      const response = await post(`/api/space/${space.id}/members/remove`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_parameters');
    }
    expect(await list(space.id)).toEqual([]);
  });

  it('answers 404 Space not found on members endpoints of a space that does not exist', async () => {
    const user = await createUser(ctx, world);
    const expected = { status: 404, body: { error: { code: 'space_not_found', message: 'Space not found' } } };
    const listed = await call(ctx, 'GET', '/api/space/2000000000/members/list', { key: world.accountKey });
    const added = await add(2_000_000_000, { user_id: user.id, role: 'reader' });
    const removed = await remove(2_000_000_000, user.id);
    for (const response of [listed, added, removed]) expect({ status: response.status, body: response.body }).toEqual(expected);
  });

  it("answers 404 Space not found to another account's key, and leaves the members untouched", async () => {
    const space = await createSpace(ctx, world);
    const user = await createUser(ctx, world);
    await add(space.id, { user_id: user.id, role: 'editor' });
    const asOther = (method: 'GET' | 'POST', path: string, body?: unknown) => call(ctx, method, `/api/space/${space.id}/${path}`, { key: other.accountKey, body });
    for (const response of [await asOther('GET', 'members/list'), await asOther('POST', 'members/add', { user_id: user.id, role: 'admin' }), await asOther('POST', 'members/remove', { user_id: user.id })]) {
      expect(response.body).toEqual({ error: { code: 'space_not_found', message: 'Space not found' } });
    }
    expect(await list(space.id)).toEqual([{ user_id: user.id, email: user.email, name: 'Member', role: 'editor' }]);
  });
});
