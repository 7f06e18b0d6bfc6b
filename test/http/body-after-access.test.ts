import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World } from '../factories.js';

/**
 * Who may call, and on which table, is settled before a body is read: a refused caller's body
 * is never parsed. A body that is not even JSON proves it, answering the refusal rather than
 * `invalid_json`.
 */
describe('the caller and the table are checked before the body is read', () => {
  const ctx = useTestApp();
  let owner: World;
  let stranger: World;
  let tableId: number;
  let readerKey: string;
  let readOnlyKey: string;
  const notJson = '{"data": {"name": ' + '['.repeat(10_000);

  beforeAll(async () => {
    owner = await createAccount(ctx);
    stranger = await createAccount(ctx);
    const space = await createSpace(ctx, owner);
    tableId = (await createTable(ctx, owner, space.id, { name: 'Notes', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    const reader = await createUser(ctx, owner, 'Reader');
    await addMember(ctx, owner, space.id, reader.id, 'reader');
    readerKey = (await createKey(ctx, { userId: reader.id })).key;
    readOnlyKey = (await createKey(ctx, { accountId: owner.accountId, readOnly: true })).key;
  });

  const raw = (key: string, path: string, payload: string | Buffer) => call(ctx, 'POST', path, { key, payload, headers: { 'content-type': 'application/json' } });

  it.each([
    ['records/create', () => `/api/table/${tableId}/records/create`],
    ['record update', () => `/api/table/${tableId}/record/1/update`],
    ['record delete', () => `/api/table/${tableId}/record/1/delete`],
    ['delete_batch', () => `/api/table/${tableId}/records/delete_batch`],
    ['create_batch', () => `/api/table/${tableId}/records/create_batch`],
    ['validate_batch', () => `/api/table/${tableId}/records/validate_batch`],
    ['update_batch', () => `/api/table/${tableId}/records/update_batch`],
    ['upsert_batch', () => `/api/table/${tableId}/records/upsert_batch`],
  ])('a reader writing through %s is refused before its body is parsed', async (_name, path) => {
    const answer = await raw(readerKey, path(), notJson);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('reader_role');
    const readOnly = await raw(readOnlyKey, path(), notJson);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.code).toBe('read_only_key');
  });

  it.each(['create', 'delete_batch', 'create_batch', 'validate_batch', 'update_batch', 'upsert_batch'])('records/%s on a table that does not exist, or of another account, answers Invalid Table before parsing', async (route) => {
    for (const path of [`/api/table/999999/records/${route}`, `/api/table/${tableId}/records/${route}`]) {
      const answer = await raw(path.includes('999999') ? owner.accountKey : stranger.accountKey, path, notJson);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ code: 'invalid_table', message: 'Invalid Table' });
    }
  });

  // Query bodies (1 MiB at most) are read first: `view_id` decides how a hidden table answers.
  it.each(['query', 'count', 'ids'])('records/%s reads its small body before deciding how a hidden table answers', async (route) => {
    for (const path of [`/api/table/999999/records/${route}`, `/api/table/${tableId}/records/${route}`]) {
      const key = path.includes('999999') ? owner.accountKey : stranger.accountKey;
      expect((await raw(key, path, notJson)).body.error.code).toBe('invalid_json');
      const answer = await call(ctx, 'POST', path, { key, body: {} });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ code: 'invalid_table', message: 'Invalid Table' });
    }
  });

  it('a caller who may write still gets the parse error, so the check is what refused the others', async () => {
    const answer = await raw(owner.accountKey, `/api/table/${tableId}/records/create`, notJson);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_json');
  });

  it('bulk writes take bodies up to 64 MiB', async () => {
    for (const route of ['create_batch', 'validate_batch', 'update_batch', 'upsert_batch']) {
      const path = `/api/table/${tableId}/records/${route}`;
      expect((await raw(owner.accountKey, path, Buffer.alloc(64 * 1024 * 1024 + 1, ' '))).status, route).toBe(413);
    }
    // Past records/create's 16 MiB, within the batches' 64.
    const padded = Buffer.concat([Buffer.from('{"records":[]}'), Buffer.alloc(20 * 1024 * 1024, ' ')]);
    const answer = await raw(owner.accountKey, `/api/table/${tableId}/records/create_batch`, padded);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: [] });
    const checked = await raw(owner.accountKey, `/api/table/${tableId}/records/validate_batch`, padded);
    expect({ status: checked.status, body: checked.body }).toEqual({ status: 200, body: { errors: [] } });
  });

  it('record writes take bodies up to 16 MiB; queries 1 MiB', async () => {
    const tooLargeWrite = Buffer.alloc(16 * 1024 * 1024 + 1, ' ');
    expect((await raw(owner.accountKey, `/api/table/${tableId}/records/create`, tooLargeWrite)).status).toBe(413);
    const tooLargeQuery = Buffer.alloc(1024 * 1024 + 1, ' ');
    expect((await raw(owner.accountKey, `/api/table/${tableId}/records/query`, tooLargeQuery)).status).toBe(413);
    const longText = 'x'.repeat(900_000);
    const created = await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: owner.accountKey, body: { data: { name: longText.slice(0, 100_000) } } });
    expect(created.status).toBe(200);
  });
});
