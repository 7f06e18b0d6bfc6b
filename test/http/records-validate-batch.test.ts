import { beforeAll, describe, expect, it } from 'vitest';
import { blobCount } from '../blob-files.js';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World } from '../factories.js';

/**
 * records/validate_batch (docs/api.md "Bulk writes"): create_batch's checks, every record of the
 * body checked, each refusal answered with its record's index and create_batch's own code and
 * message; nothing written (no record, change, count, search text, trash entry or file).
 */
describe('records/validate_batch', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;
  let tableId: number;
  let companyIds: number[];
  let memberId: number;
  let editorKey: string;

  const post = (url: string, body: unknown, key: string = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const validate = (body: unknown, key?: string) => post(`/api/table/${tableId}/records/validate_batch`, body, key);
  const createBatch = (body: unknown, key?: string) => post(`/api/table/${tableId}/records/create_batch`, body, key);
  const inline = (content: string) => ({ data: Buffer.from(content).toString('base64'), name: 'note.txt', type: 'text/plain' });

  /** Everything a write would leave: records, their count and search text, changes, trash, files. */
  async function traces() {
    await ctx.container.services.unit.settleQueued();
    const { db } = ctx.container.database;
    return {
      ids: (await post(`/api/table/${tableId}/records/ids`, {})).body,
      count: (await post(`/api/table/${tableId}/records/count`, {})).body,
      found: (await post(`/api/table/${tableId}/records/query`, { search: 'checked' })).body,
      changes: (await post(`/api/table/${tableId}/changes/list`, { after: 0, limit: 1000 })).body,
      trash: (await post(`/api/table/${tableId}/records/trash`, {})).body,
      storedFiles: (await db.selectFrom('stored_files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n,
      blobs: blobCount(ctx.database.dataDir),
    };
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Validate')).id;
    const companies = (await createTable(ctx, world, spaceId, { name: 'Companies', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    companyIds = (await post(`/api/table/${companies}/records/create_batch`, { records: [{ data: { name: 'Acme' } }, { data: { name: 'Globex' } }] })).body.map((r: { id: number }) => r.id);
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'People',
        fields: [
          { id: 'name', name: 'Name', type: 'text', required: true },
          { id: 'email', name: 'Email', type: 'email' },
          { id: 'amount', name: 'Amount', type: 'number' },
          { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }] },
          { id: 'owner', name: 'Owner', type: 'user' },
          { id: 'company', name: 'Company', type: 'lookup', table_id: companies },
          { id: 'locked', name: 'Locked', type: 'text', editable_by: 'admins' },
          { id: 'docs', name: 'Docs', type: 'file' },
        ],
      })
    ).id;
    const member = await createUser(ctx, world, 'Mia Member');
    await addMember(ctx, world, spaceId, member.id, 'editor');
    memberId = member.id;
    editorKey = (await createKey(ctx, { userId: member.id })).key;
  });

  /** A batch whose records are refused at every step create_batch checks, among good ones. */
  const mixed = () => [
    { data: { name: 'checked one', email: 'one@example.com', amount: 1, stage: 'lead', owner: memberId, company: companyIds[0], docs: [inline('one')] } },
    { data: { name: 'checked two', colour: 'red' } },
    'not an object',
    { data: { name: 'checked three', amount: 'ten' } },
    { data: { amount: 4 } },
    { data: { name: 'checked four', stage: 'won' } },
    { data: { name: 'checked five', company: 999_999 } },
    { data: { name: 'checked six' }, extra: true },
    { data: { name: 'checked seven', owner: 'nobody@example.com' } },
    { data: { name: 'checked eight', email: 'not an address' } },
    { data: { name: 'checked nine', docs: [{ nothing: 1 }] } },
    { data: { name: 'checked ten', stage: 'prospect' } },
  ];

  it('answers every refused record by index, with the code and message create_batch gives it alone, and writes nothing', async () => {
    const records = mixed();
    const before = await traces();
    const response = await validate({ records });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const errors = response.body.errors as Array<{ index: number; code: string; message: string }>;
    expect(errors.map((error) => error.index)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10, 11]);
    expect(errors.find((error) => error.index === 1)).toEqual({ index: 1, code: 'invalid_field', message: 'Invalid field: colour' });
    expect(errors.find((error) => error.index === 4)).toEqual({ index: 4, code: 'required_field', message: 'Missing value for required field: name' });
    // The same checks as create_batch's: each refused record sent alone is refused with this error.
    for (const error of errors) {
      const alone = await createBatch({ records: [records[error.index]] });
      expect({ status: alone.status, body: alone.body }, `record ${error.index}`).toEqual({ status: alone.status, body: { error: { code: error.code, message: `records[0]: ${error.message}` } } });
      expect(alone.status).toBeGreaterThanOrEqual(400);
    }
    // And the whole batch: create_batch answers one of them, named by its index.
    const whole = await createBatch({ records });
    expect(errors.map((error) => ({ error: { code: error.code, message: `records[${error.index}]: ${error.message}` } }))).toContainEqual(whole.body);
    expect(await traces()).toEqual(before);
  });

  it('answers no errors for a batch create_batch takes whole, writing nothing until create_batch does', async () => {
    const records = mixed().filter((_, index) => [0, 5].includes(index));
    const before = await traces();
    expect((await validate({ records })).body).toEqual({ errors: [] });
    expect(await traces()).toEqual(before);
    const created = await createBatch({ records });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.map((record: { title: string }) => record.title)).toEqual(['checked one', 'checked four']);
  });

  it('refuses a field the caller may not edit as create_batch does (403 field_not_editable), as that record\'s error', async () => {
    const records = [{ data: { name: 'checked by editor' } }, { data: { name: 'checked locked', locked: 'x' } }];
    const before = await traces();
    expect((await validate({ records }, editorKey)).body).toEqual({ errors: [{ index: 1, code: 'field_not_editable', message: 'No edit permission for field: locked' }] });
    expect((await createBatch({ records }, editorKey)).body).toEqual({ error: { code: 'field_not_editable', message: 'records[1]: No edit permission for field: locked' } });
    expect(await traces()).toEqual(before);
  });

  it('answers no errors for an empty batch; refuses a body create_batch refuses whole, with its status and message', async () => {
    expect((await validate({ records: [] })).body).toEqual({ errors: [] });
    for (const body of [{}, { records: 'x' }, { records: [], extra: 1 }, { records: Array.from({ length: 1001 }, () => ({ data: { name: 'n' } })) }]) {
      const checked = await validate(body);
      const created = await createBatch(body);
      expect(checked.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect({ status: checked.status, body: checked.body }).toEqual({ status: created.status, body: created.body });
    }
  });

  it('checks 1,000 records in one call, every bad one reported', async () => {
    const records = Array.from({ length: 1000 }, (_, n) => ({ data: { name: `checked ${n}`, amount: n % 250 === 7 ? 'x' : n } }));
    const before = await traces();
    const response = await validate({ records });
    expect(response.body.errors.map((error: { index: number }) => error.index)).toEqual([7, 257, 507, 757]);
    expect(response.body.errors[0]).toEqual({ index: 7, code: 'invalid_field_value', message: 'Invalid value for field amount: expected a number, got "x"' });
    expect(await traces()).toEqual(before);
  });
});
