import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type Response, type World } from '../factories.js';

/**
 * Every field type through the HTTP API: each write form the seed's "Field value formats"
 * table lists, each read format, and the 400s for values of the wrong shape. A rejected
 * write leaves the stored record exactly as it was.
 */
describe('record field values', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;
  let otherWorld: World;
  let targetTableId: number;
  let tableId: number;
  let member: { id: number; email: string; name: string };
  let memberKey: string;
  let nonMember: { id: number; email: string; name: string };
  let foreignUser: { id: number; email: string; name: string };
  let owner: { id: number; email: string; name: string };

  const options = [{ value: 'a' }, { value: 'b' }, { value: 'c' }];

  beforeAll(async () => {
    world = await createAccount(ctx);
    otherWorld = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Fields')).id;
    member = await createUser(ctx, world, 'Mia Member');
    nonMember = await createUser(ctx, world, 'Nick Outsider');
    foreignUser = await createUser(ctx, otherWorld, 'Fay Foreign');
    owner = { id: world.ownerId, email: world.ownerEmail, name: 'Owner' };
    await addMember(ctx, world, spaceId, member.id, 'editor');
    memberKey = (await createKey(ctx, { userId: member.id })).key;
    targetTableId = (await createTable(ctx, world, spaceId, { name: 'Targets', fields: [{ id: 'code', name: 'Code', type: 'number' }, { id: 'label', name: 'Label', type: 'text' }] })).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Everything',
        fields: [
          { id: 't', name: 'Text', type: 'text' },
          { id: 'lt', name: 'Long text', type: 'longtext' },
          { id: 'em', name: 'Email', type: 'email' },
          { id: 'u', name: 'Url', type: 'url' },
          { id: 'n', name: 'Number', type: 'number' },
          { id: 'n2', name: 'Price', type: 'number', decimals: 2 },
          { id: 'n0', name: 'Count', type: 'number', decimals: 0 },
          { id: 'cb', name: 'Done', type: 'checkbox' },
          { id: 's', name: 'Status', type: 'select', options },
          { id: 'sm', name: 'Tags', type: 'select', multiple: true, options },
          { id: 'us', name: 'Assignee', type: 'user' },
          { id: 'um', name: 'Watchers', type: 'user', multiple: true },
          { id: 'lk', name: 'Parent', type: 'lookup', table_id: targetTableId },
          { id: 'lkm', name: 'Related', type: 'lookup', multiple: true, table_id: targetTableId },
          { id: 'd', name: 'Due', type: 'date' },
          { id: 'dt', name: 'At', type: 'datetime' },
          { id: 'tm', name: 'Time', type: 'time' },
          { id: 'f', name: 'Files', type: 'file' },
        ],
      })
    ).id;
  });

  const post = (url: string, body: unknown, key = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const create = (data: Record<string, unknown>, key = world.accountKey, table = tableId) => post(`/api/table/${table}/records/create`, { data }, key);
  const update = (id: number, data: Record<string, unknown>, key = world.accountKey, table = tableId) => post(`/api/table/${table}/record/${id}/update`, { data }, key);
  const get = (id: number, table = tableId) => call(ctx, 'GET', `/api/table/${table}/record/${id}/get`, { key: world.accountKey });
  const count = async () => (await post(`/api/table/${tableId}/records/count`, {})).body.count as number;

  /** Creates a record and answers its id (fails the test when the create fails). */
  async function newRecord(data: Record<string, unknown> = {}, table = tableId): Promise<number> {
    const response = await create(data, world.accountKey, table);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.id;
  }

  /** Writes one value and answers what a fresh get reads back for that slug. */
  async function roundTrip(slug: string, value: unknown, key = world.accountKey): Promise<unknown> {
    const created = await create({ [slug]: value }, key);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const fetched = await get(created.body.id);
    expect(fetched.body.data[slug]).toEqual(created.body.data[slug]);
    const id = created.body.id as number;
    // The update path stores the same thing.
    const cleared = await update(id, { [slug]: null });
    expect(cleared.status).toBe(200);
    const updated = await update(id, { [slug]: value }, key);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data[slug]).toEqual(created.body.data[slug]);
    return fetched.body.data[slug];
  }

  function expectFieldError(response: Response, slug: string, code = 'invalid_field_value') {
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.error.code).toBe(code);
    expect(response.body.error.message).toMatch(new RegExp(`\\b${slug}\\b`));
  }

  /**
   * A bad value answers 400 naming the field, on create (no record appears) and on update
   * (the stored record reads exactly as before).
   */
  async function expectRejected(slug: string, value: unknown, base: Record<string, unknown> = {}, key = world.accountKey, code?: string) {
    const before = await count();
    expectFieldError(await create({ [slug]: value }, key), slug, code);
    expect(await count()).toBe(before);

    const id = await newRecord(base);
    const stored = (await get(id)).body;
    expectFieldError(await update(id, { [slug]: value }, key), slug, code);
    expect((await get(id)).body).toEqual(stored);
  }

  describe('text, longtext, email, url', () => {
    it.each([
      ['t', 'Hello, world'],
      ['t', '  kept with its spaces  '],
      ['t', 'Ünïcödé ✓ 日本語 😀'],
      ['lt', 'line one\nline two\n\ttabbed'],
      ['em', 'Someone@Example.com'],
      ['u', 'https://example.com/a/b?c=d#e'],
      ['u', 'ftp://files.example.org/x'],
    ])('stores %s = %j and reads it back as the same string', async (slug, value) => {
      expect(await roundTrip(slug, value)).toBe(value);
    });

    it('trims surrounding spaces off an email and a url', async () => {
      expect(await roundTrip('em', '  a@b.co  ')).toBe('a@b.co');
      expect(await roundTrip('u', ' https://example.com ')).toBe('https://example.com');
    });

    it.each(['not-an-email', 'a@b', '@example.com', 'a b@example.com', 'a@@example.com'])('rejects the invalid email %j with 400 naming the field', async (value) => {
      await expectRejected('em', value, { em: 'kept@example.com' });
    });

    it.each(['example.com', 'www.example.com/x', 'http//broken', 'https://', 'javascript:alert(1)'])('rejects the invalid url %j with 400 naming the field', async (value) => {
      await expectRejected('u', value, { u: 'https://kept.example.com' });
    });

    // Refused by the JSON body parser for every string of every body (`Invalid parameters: data.<slug> must not contain …`).
    it.each(['t', 'lt', 'em', 'u'])('rejects a NUL byte in %s with 400', async (slug) => {
      const value = slug === 'em' ? 'a\u0000b@example.com' : slug === 'u' ? 'https://example.com/\u0000' : 'a\u0000b';
      await expectRejected(slug, value, { t: 'kept' }, world.accountKey, 'invalid_parameters');
    });

    it.each(['t', 'lt'])('rejects an unpaired surrogate in %s with 400: neither engine could store it as sent', async (slug) => {
      await expectRejected(slug, 'a\uD800b', { t: 'kept' }, world.accountKey, 'invalid_parameters');
    });

    it.each([
      ['t', 42],
      ['t', true],
      ['t', { text: 'x' }],
      ['t', ['x']],
      ['lt', 1.5],
      ['em', 7],
      ['u', false],
    ])('rejects the non-string %s = %j with 400', async (slug, value) => {
      await expectRejected(slug, value, { t: 'kept' });
    });

    it('reads an empty text-like value as null, whether given as "" or null or never set', async () => {
      const id = await newRecord({ t: 'x', lt: 'y', em: 'e@example.com', u: 'https://example.com' });
      const response = await update(id, { t: '', lt: null, em: '', u: null });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ t: null, lt: null, em: null, u: null });
      expect((await get(await newRecord({}))).body.data).toMatchObject({ t: null, lt: null, em: null, u: null });
    });
  });

  describe('number', () => {
    it.each([
      ['n', 42, 42],
      ['n', -7.25, -7.25],
      ['n', 3.14159265, 3.14159265],
      ['n', 0, 0],
      ['n', 1e-7, 1e-7],
      ['n2', 3.14159, 3.14],
      ['n2', 2.5, 2.5],
      ['n2', 10, 10],
      ['n2', -1.239, -1.24],
      ['n2', 1.005, 1.01],
      ['n2', 2.675, 2.68],
      ['n0', 2.5, 3],
      ['n0', 7.4, 7],
    ])('stores %s = %j and reads %j (decimals round; unset keeps the number as given)', async (slug, value, expected) => {
      expect(await roundTrip(slug, value)).toBe(expected);
    });

    it.each([['5'], ['1.5'], [true], [[1]], [{ value: 1 }]])('rejects %j with 400 naming the field', async (value) => {
      await expectRejected('n', value, { n: 1 });
    });

    it('reads an empty number as null', async () => {
      const id = await newRecord({ n: 5 });
      expect((await update(id, { n: null })).body.data.n).toBeNull();
      expect((await get(id)).body.data.n).toBeNull();
    });
  });

  describe('checkbox', () => {
    it('stores true and false and reads them as booleans', async () => {
      expect(await roundTrip('cb', true)).toBe(true);
      expect(await roundTrip('cb', false)).toBe(false);
    });

    it('reads an unset or cleared checkbox as false', async () => {
      const id = await newRecord({ cb: true });
      expect((await update(id, { cb: null })).body.data.cb).toBe(false);
      expect((await get(await newRecord({}))).body.data.cb).toBe(false);
    });

    it.each([['yes'], [2], [{}], [['true']]])('rejects %j with 400 naming the field', async (value) => {
      await expectRejected('cb', value, { cb: true });
    });
  });

  describe('select (single)', () => {
    it.each([
      ['a', 'a'],
      [['b'], 'b'],
      ['c', 'c'],
      [' b ', 'b'],
      ['a,', 'a'],
    ])('stores %j and reads the string %j', async (value, expected) => {
      expect(await roundTrip('s', value)).toBe(expected);
    });

    it.each([['a,b'], [['a', 'b']], ['a, c']])('rejects two values %j with 400', async (value) => {
      await expectRejected('s', value, { s: 'c' });
    });

    it.each([['zzz'], [['x']], ['A'], [5], [[1]], [{ value: 'a' }]])('rejects %j (not an option, or not a string) with 400', async (value) => {
      await expectRejected('s', value, { s: 'c' });
    });

    it('reads an empty single select as null', async () => {
      const id = await newRecord({ s: 'a' });
      expect((await update(id, { s: [] })).body.data.s).toBeNull();
      expect((await update(id, { s: 'b' })).body.data.s).toBe('b');
      expect((await update(id, { s: '' })).body.data.s).toBeNull();
      expect((await get(await newRecord({}))).body.data.s).toBeNull();
    });
  });

  describe('select (multiple)', () => {
    it.each([
      [['a', 'b'], ['a', 'b']],
      [['c', 'a'], ['c', 'a']],
      ['a,c', ['a', 'c']],
      ['b, a', ['b', 'a']],
      ['b', ['b']],
      [['b'], ['b']],
      [['a', 'a', 'b', 'a'], ['a', 'b']],
      ['c,c', ['c']],
      [['a,b', 'c'], ['a', 'b', 'c']],
    ])('stores %j and reads the array %j (duplicates dropped, order kept)', async (value, expected) => {
      expect(await roundTrip('sm', value)).toEqual(expected);
    });

    it.each([[['a', 'x']], ['a,x'], [[1]], [5]])('rejects %j with 400', async (value) => {
      await expectRejected('sm', value, { sm: ['a'] });
    });

    it('reads an empty multiple select as []', async () => {
      const id = await newRecord({ sm: ['a', 'b'] });
      expect((await update(id, { sm: [] })).body.data.sm).toEqual([]);
      expect((await get(id)).body.data.sm).toEqual([]);
      expect((await update(id, { sm: 'a' })).body.data.sm).toEqual(['a']);
      expect((await update(id, { sm: null })).body.data.sm).toEqual([]);
      expect((await update(id, { sm: '' })).body.data.sm).toEqual([]);
      expect((await get(await newRecord({}))).body.data.sm).toEqual([]);
    });
  });

  describe('user', () => {
    const summary = (user: { id: number; email: string; name: string }) => ({ id: user.id, email: user.email, name: user.name });

    it('reads a single user as exactly {id, email, name}', async () => {
      const id = await newRecord({ us: member.id });
      expect((await get(id)).body.data.us).toStrictEqual(summary(member));
    });

    it.each([
      ['the user id', () => member.id],
      ['the email', () => member.email],
      ['the email in another letter case', () => member.email.toUpperCase()],
      ['an object {id}', () => ({ id: member.id })],
      ['an object {email}', () => ({ email: member.email })],
      ['an object {id, email, name} as read', () => summary(member)],
      ['a one-item array', () => [member.id]],
    ])('accepts %s on a single user field', async (_label, value) => {
      expect(await roundTrip('us', value())).toEqual(summary(member));
    });

    it('accepts every form mixed in an array on a multiple user field, without duplicates', async () => {
      const value = [member.id, owner.email, { id: member.id }, { email: member.email.toUpperCase() }];
      expect(await roundTrip('um', value)).toEqual([summary(member), summary(owner)]);
    });

    it('resolves @me to the account owner for an account key', async () => {
      expect(await roundTrip('us', '@me')).toEqual(summary(owner));
      expect(await roundTrip('um', ['@me', member.id])).toEqual([summary(owner), summary(member)]);
    });

    it("resolves @me to the key's user for a personal key", async () => {
      expect(await roundTrip('us', '@me', memberKey)).toEqual(summary(member));
    });

    it('rejects two users on a single user field with 400', async () => {
      await expectRejected('us', [member.id, owner.id], { us: member.id });
    });

    it.each([
      ['a user of the account who is not a member of the space, by id', () => nonMember.id],
      ['a non-member by email', () => nonMember.email],
      ['a non-member as {id}', () => ({ id: nonMember.id })],
      ["another account's user by id", () => foreignUser.id],
      ["another account's user by email", () => foreignUser.email],
      ['an unknown id', () => 999_999],
      ['an id out of the integer range', () => 3_000_000_000],
      ['an unknown email', () => 'nobody@example.com'],
      ['an object with neither id nor email', () => ({ name: member.name })],
      ['a boolean', () => true],
      ['a fractional id', () => member.id + 0.5],
    ])('rejects %s with 400 naming the field', async (_label, value) => {
      await expectRejected('us', value(), { us: member.id });
      await expectRejected('um', [member.id, value()], { um: [member.id] });
    });

    it("shows the member's current email and name after the user changes them", async () => {
      const user = await createUser(ctx, world, 'Renamed Later');
      await addMember(ctx, world, spaceId, user.id, 'reader');
      const id = await newRecord({ us: user.email, um: [user.id, member.id] });
      await ctx.container.services.users.updateUser(user.id, { email: `new-${user.email}`, name: 'Renamed Now' });
      const now = { id: user.id, email: `new-${user.email}`, name: 'Renamed Now' };
      const read = (await get(id)).body.data;
      expect(read.us).toEqual(now);
      expect(read.um).toEqual([now, summary(member)]);
      // The new address is the one that resolves on writes; the old one no longer does.
      expect((await update(id, { us: now.email.toUpperCase() })).body.data.us).toEqual(now);
      expectFieldError(await update(id, { us: user.email }), 'us');
    });

    it('reads an empty single user as null and an empty multiple user as []', async () => {
      const id = await newRecord({ us: member.id, um: [member.id] });
      const response = await update(id, { us: null, um: [] });
      expect(response.body.data).toMatchObject({ us: null, um: [] });
      expect((await get(await newRecord({}))).body.data).toMatchObject({ us: null, um: [] });
    });
  });

  describe('lookup', () => {
    it('accepts a record id or {id, title} and reads {id, title} from the target table\'s title field', async () => {
      const first = await newRecord({ label: 'First', code: 1 }, targetTableId);
      const second = await newRecord({ label: 'Second', code: 2 }, targetTableId);
      expect(await roundTrip('lk', first)).toStrictEqual({ id: first, title: 'First' });
      expect(await roundTrip('lk', { id: second, title: 'anything: the title is ignored' })).toStrictEqual({ id: second, title: 'Second' });
      expect(await roundTrip('lk', [first])).toEqual({ id: first, title: 'First' });
      expect(await roundTrip('lkm', [second, { id: first, title: 'First' }])).toEqual([
        { id: second, title: 'Second' },
        { id: first, title: 'First' },
      ]);
      expect(await roundTrip('lkm', first)).toEqual([{ id: first, title: 'First' }]);
      expect(await roundTrip('lkm', [first, first, { id: first }])).toEqual([{ id: first, title: 'First' }]);
    });

    it('reads the title as null when the target record has an empty title', async () => {
      const untitled = await newRecord({ code: 3 }, targetTableId);
      expect(await roundTrip('lk', untitled)).toEqual({ id: untitled, title: null });
    });

    it('follows changes of the target record: a new title shows on the next read', async () => {
      const target = await newRecord({ label: 'Before' }, targetTableId);
      const id = await newRecord({ lk: target, lkm: [target] });
      await update(target, { label: 'After' }, world.accountKey, targetTableId);
      expect((await get(id)).body.data).toMatchObject({ lk: { id: target, title: 'After' }, lkm: [{ id: target, title: 'After' }] });
    });

    it('answers writes arriving together each with its own target: its title, or its own 400', async () => {
      // On PostgreSQL the titles these writes read are gathered into one statement a turn
      // (records.repository readColumnThisTurn): each must still get only its own answer.
      const targets = await Promise.all(['Alpha', 'Beta', 'Gamma'].map((label) => newRecord({ label }, targetTableId)));
      const renamed = await newRecord({ label: 'Old name' }, targetTableId);
      const existing = await newRecord({ t: 'updated together' });
      const before = await count();
      await update(renamed, { label: 'New name' }, world.accountKey, targetTableId);
      const asked = [targets[0], 999_999, targets[1], targets[0], renamed, 999_998, targets[2]];
      const [updated, ...created] = await Promise.all([update(existing, { lk: targets[2] }), ...asked.map((target, n) => create({ t: `together ${n}`, lk: target }))]);
      expect(updated.body.data.lk).toEqual({ id: targets[2], title: 'Gamma' });
      const titles: Record<number, string> = { [targets[0]]: 'Alpha', [targets[1]]: 'Beta', [targets[2]]: 'Gamma', [renamed]: 'New name' };
      created.forEach((response, n) => {
        if (asked[n] >= 999_998) expectFieldError(response, 'lk');
        else expect(response.body.data.lk).toEqual({ id: asked[n], title: titles[asked[n]] });
      });
      expect(await count()).toBe(before + asked.length - 2);
    });

    it('drops a deleted target record from the read', async () => {
      const kept = await newRecord({ label: 'Kept' }, targetTableId);
      const gone = await newRecord({ label: 'Gone' }, targetTableId);
      const id = await newRecord({ lk: gone, lkm: [gone, kept] });
      const deleted = await post(`/api/table/${targetTableId}/record/${gone}/delete`, {});
      expect(deleted.status).toBe(200);
      expect((await get(id)).body.data).toMatchObject({ lk: null, lkm: [{ id: kept, title: 'Kept' }] });
    });

    it.each([
      ['a record id that does not exist', () => 999_999],
      ['an id out of the integer range', () => 3_000_000_000],
      ['{id} of a missing record', () => ({ id: 999_999, title: 'x' })],
      ['an object without id', () => ({ title: 'First' })],
      ['a string', () => 'First'],
      ['zero', () => 0],
      ['a fractional id', () => 1.5],
    ])('rejects %s with 400 naming the field', async (_label, value) => {
      const target = await newRecord({ label: 'Valid' }, targetTableId);
      await expectRejected('lk', value(), { lk: target });
      await expectRejected('lkm', [target, value()], { lkm: [target] });
    });

    it('rejects the id of a record that exists only in another table', async () => {
      const target = await newRecord({ label: 'Valid' }, targetTableId);
      let elsewhere = await newRecord({ t: 'not a target' });
      while (elsewhere <= target) elsewhere = await newRecord({ t: 'not a target' });
      // `elsewhere` is an id of the table itself, past the last id of the target table.
      await expectRejected('lk', elsewhere, { lk: target });
    });

    it('rejects two records on a single lookup field with 400', async () => {
      const one = await newRecord({ label: 'One' }, targetTableId);
      const two = await newRecord({ label: 'Two' }, targetTableId);
      await expectRejected('lk', [one, two], { lk: one });
    });

    it('reads an empty single lookup as null and an empty multiple lookup as []', async () => {
      const target = await newRecord({ label: 'T' }, targetTableId);
      const id = await newRecord({ lk: target, lkm: [target] });
      expect((await update(id, { lk: null, lkm: [] })).body.data).toMatchObject({ lk: null, lkm: [] });
      expect((await get(await newRecord({}))).body.data).toMatchObject({ lk: null, lkm: [] });
    });
  });

  describe('date, datetime, time', () => {
    it.each([
      ['d', '2024-02-29'],
      ['d', '1970-01-01'],
      ['d', '2024-12-31'],
      ['d', '0001-01-01'],
      ['d', '9999-12-31'],
      ['dt', '2024-03-10 23:59:59'],
      ['dt', '2024-01-01 00:00:00'],
      ['tm', '00:00:00'],
      ['tm', '23:59:59'],
      ['tm', '12:30:05'],
    ])('stores %s = %j and reads exactly the same text (never shifted)', async (slug, value) => {
      expect(await roundTrip(slug, value)).toBe(value);
    });

    it.each([
      ['d', '2023-02-29'],
      ['d', '2024-02-30'],
      ['d', '2024-04-31'],
      ['d', '2024-13-01'],
      ['d', '2024-00-10'],
      ['d', '2024-1-5'],
      ['d', '2024-01-05T00:00:00Z'],
      ['d', '2024-01-05 00:00:00'],
      ['d', '05/01/2024'],
      ['d', 20240105],
      ['dt', '2024-03-10T10:00:00+01:00'],
      ['dt', '2024-03-10 24:00:00'],
      ['dt', '2024-03-10 10:60:00'],
      ['dt', '2023-02-29 10:00:00'],
      ['dt', '2024-03-10'],
      ['dt', '2024-03-10T10:00:00.5Z'],
      ['tm', '24:00:00'],
      ['tm', '9:00:00'],
      ['tm', '12:00'],
      ['tm', '12:00:60'],
      ['tm', 43200],
    ])('rejects %s = %j with 400 naming the field', async (slug, value) => {
      await expectRejected(slug, value, { d: '2020-01-01', dt: '2020-01-01 01:02:03', tm: '01:02:03' });
    });

    it.each([
      ['d', 'today'],
      ['d', 'yesterday'],
      ['d', '-1d'],
      ['d', '+2w'],
      ['d', 'start_of_month'],
      ['dt', 'now'],
      ['dt', '-3m'],
      ['tm', 'now'],
    ])('rejects the date token %s = %j on writes with 400', async (slug, value) => {
      await expectRejected(slug, value, { d: '2020-01-01', dt: '2020-01-01 01:02:03', tm: '01:02:03' });
    });

    it('reads empty temporal values as null', async () => {
      const id = await newRecord({ d: '2020-01-01', dt: '2020-01-01 01:02:03', tm: '01:02:03' });
      expect((await update(id, { d: null, dt: '', tm: null })).body.data).toMatchObject({ d: null, dt: null, tm: null });
      expect((await get(await newRecord({}))).body.data).toMatchObject({ d: null, dt: null, tm: null });
    });
  });

  describe('file', () => {
    it('accepts [] and null and reads an empty array', async () => {
      expect(await roundTrip('f', [])).toEqual([]);
      expect(await roundTrip('f', null)).toEqual([]);
      expect((await get(await newRecord({}))).body.data.f).toEqual([]);
    });

    it.each([
      [[{ name: 'a.txt', path: '/x/1-a.txt', type: 'text/plain', size: 1, host: 'localhost' }]],
      [[{ url: 'http://127.0.0.1/a.png' }]],
      [[{ data: 'aGVsbG8!', name: 'hello.txt' }]],
      [[{ data: 'aGVsbG8=', url: 'http://127.0.0.1/' }]],
      [[{ data: 'aGVsbG8=', size: 3 }]],
      ['a.txt'],
    ])('rejects %j (an unknown path, a blocked URL, bad base64, a mixed or unknown shape) with 400', async (value) => {
      await expectRejected('f', value, { t: 'kept' });
    });
  });

  describe('empty values', () => {
    it('reads every single-valued field as null (checkbox false) and every multi-valued one as [] on a record created empty', async () => {
      const response = await create({});
      expect(response.status).toBe(200);
      expect(response.body.data).toStrictEqual({
        t: null,
        lt: null,
        em: null,
        u: null,
        n: null,
        n2: null,
        n0: null,
        cb: false,
        s: null,
        sm: [],
        us: null,
        um: [],
        lk: null,
        lkm: [],
        d: null,
        dt: null,
        tm: null,
        f: [],
      });
      expect((await get(response.body.id)).body).toEqual(response.body);
    });

    it('clears every field of a filled record with null', async () => {
      const target = await newRecord({ label: 'T' }, targetTableId);
      const id = await newRecord({
        t: 'x', lt: 'y', em: 'a@b.co', u: 'https://x.io', n: 1, n2: 2, n0: 3, cb: true, s: 'a', sm: ['b'],
        us: member.id, um: [member.id], lk: target, lkm: [target], d: '2024-01-01', dt: '2024-01-01 00:00:00', tm: '00:00:00', f: [],
      });
      const all = Object.fromEntries(['t', 'lt', 'em', 'u', 'n', 'n2', 'n0', 'cb', 's', 'sm', 'us', 'um', 'lk', 'lkm', 'd', 'dt', 'tm', 'f'].map((slug) => [slug, null]));
      const response = await update(id, all);
      expect(response.status).toBe(200);
      expect(response.body.data).toStrictEqual({ ...all, cb: false, sm: [], um: [], lkm: [], f: [] });
    });
  });

  describe('other accounts', () => {
    it("rejects a lookup into another account's table at field creation, so no record can reach it", async () => {
      const foreignSpace = await createSpace(ctx, otherWorld, 'Foreign');
      const foreignTable = await createTable(ctx, otherWorld, foreignSpace.id, { name: 'Foreign', fields: [{ name: 'Name', type: 'text' }] });
      const response = await post(`/api/table/${tableId}/fields/create`, { name: 'Foreign ref', type: 'lookup', table_id: foreignTable.id });
      expect(response.status).toBe(400);
    });
  });
});
