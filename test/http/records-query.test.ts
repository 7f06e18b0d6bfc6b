import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/shared/clock.js';
import { fixedClock } from '../../src/shared/clock.js';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World, everyFieldType } from '../factories.js';

/** Every spelling of each operator the seed lists (aliases are case as given). */
const SPELLINGS = {
  eq: ['=', 'EQ'],
  ne: ['!=', 'NE', 'NEQ'],
  lt: ['<', 'LT'],
  lte: ['<=', 'LTE'],
  gt: ['>', 'GT'],
  gte: ['>=', 'GTE'],
  contains: ['C', 'CONTAINS', 'contains'],
  starts_with: ['SW', 'STARTS_WITH', 'starts_with'],
  ends_with: ['EW', 'ENDS_WITH', 'ends_with'],
  empty: ['EMPTY', 'IS_EMPTY', 'is_empty'],
  not_empty: ['NEMPTY', 'IS_NOT_EMPTY', 'is_not_empty'],
} as const;
type Op = keyof typeof SPELLINGS;

/** The server clock of this file; most tests keep it at 2024-03-31 15:30:00 UTC (a Sunday). */
const FIXED = '2024-03-31T15:30:00Z';
let clockAt = FIXED;
const movableClock: Clock = { now: () => fixedClock(clockAt).now() };

/** Code units compare like UTF-16; the service sorts text by its UTF-8 bytes on both engines. */
const byteCompare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('records query', () => {
  const ctx = useTestApp({ clock: movableClock });
  let world: World;
  let member: { id: number; email: string };
  let memberKey: string;
  let spaceId: number;
  let targets: Record<'one' | 'two', number>;
  let targetTable: number;
  let itemsTable: number;
  /** Record ids of the items table by label. */
  const item: Record<string, number> = {};

  const post = (path: string, body: unknown, key = world.accountKey) => call(ctx, 'POST', path, { key, body });
  const createRecord = async (tableId: number, data: Record<string, unknown>) => {
    const response = await post(`/api/table/${tableId}/records/create`, { data });
    if (response.status !== 200) throw new Error(`create failed: ${JSON.stringify(response.body)}`);
    return response.body as { id: number; data: Record<string, unknown> };
  };
  const query = (tableId: number, body: unknown, key?: string) => post(`/api/table/${tableId}/records/query`, body, key);
  /** The ids a query answers, in order; fails the test on anything but 200. */
  async function queryIds(tableId: number, body: unknown, key?: string): Promise<number[]> {
    const response = await query(tableId, body, key);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.map((record: { id: number }) => record.id);
  }
  const labelsOf = (ids: number[]) => ids.map((id) => Object.keys(item).find((label) => item[label] === id));
  async function expectInvalid(tableId: number, body: unknown, message: string | RegExp, key?: string) {
    const response = await query(tableId, body, key);
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(Object.keys(response.body)).toEqual(['error']);
    expect(response.body.error.code).toMatch(/^invalid_[a-z_]+$/);
    if (typeof message === 'string') expect(response.body.error.message).toBe(message);
    else expect(response.body.error.message).toMatch(message);
    return response.body.error;
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Query')).id;
    member = await createUser(ctx, world, 'Member');
    await addMember(ctx, world, spaceId, member.id, 'editor');
    memberKey = (await createKey(ctx, { userId: member.id })).key;

    const target = await createTable(ctx, world, spaceId, { name: 'Targets', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
    targetTable = target.id;
    targets = { one: (await createRecord(target.id, { label: 'one' })).id, two: (await createRecord(target.id, { label: 'two' })).id };

    const items = await createTable(ctx, world, spaceId, {
      name: 'Items',
      fields: everyFieldType(target.id),
    });
    itemsTable = items.id;
    const rows: Record<string, Record<string, unknown>> = {
      A: {
        name: 'Alpha', notes: 'First note: 100% done_ok', mail: 'alpha@example.com', site: 'https://alpha.example.com/path', amount: 10, done: true,
        status: 'Open', tags: ['red', 'blue'], owner: world.ownerId, team: [world.ownerId, member.id], ref: targets.one, refs: [targets.one, targets.two],
        day: '2024-03-01', moment: '2024-03-01 08:00:00', clock: '08:00:00',
      },
      B: {
        name: 'beta', notes: 'Second NOTE', mail: 'beta@example.org', site: 'http://beta.test', amount: -5.5, done: false, status: 'Closed', tags: ['blue'],
        owner: member.id, team: [member.id], ref: targets.two, refs: [targets.two], day: '2024-02-29', moment: '2024-02-29 23:59:59', clock: '23:59:59',
      },
      C: { name: 'Gamma', amount: 0, done: true, status: 'Pending', tags: ['green'], day: '2023-12-31', moment: '2024-03-31 15:30:00', clock: '15:30:00' },
      D: {},
      E: {
        name: 'ALPHABET soup', notes: '', amount: 10, status: 'Open', tags: ['red'], owner: world.ownerId, refs: [targets.one], day: '2024-03-31',
        moment: '2024-03-31 00:00:00', clock: '00:00:00',
      },
    };
    for (const [label, data] of Object.entries(rows)) item[label] = (await createRecord(itemsTable, data)).id;
  });

  describe('operators and aliases', () => {
    /**
     * One condition, sent through `where` ({slug: [op, value]}) and through `filters`, with every
     * spelling of the operator: each answer must be exactly the expected records, in id order.
     */
    async function expectMatches(slug: string, op: Op, value: unknown, expected: string[], key?: string) {
      for (const spelling of SPELLINGS[op]) {
        const where = await queryIds(itemsTable, { where: { [slug]: [spelling, value] } }, key);
        expect(labelsOf(where), `where ${slug} ${spelling} ${JSON.stringify(value)}`).toEqual(expected);
        const filters = await queryIds(itemsTable, { filters: [{ column: slug, compare: spelling, value }] }, key);
        expect(labelsOf(filters), `filters ${slug} ${spelling} ${JSON.stringify(value)}`).toEqual(expected);
      }
    }
    /** Every spelling of an operator that does not apply answers 400 `Invalid filter: <slug>: …`, in both forms. */
    async function expectNotApplicable(slug: string, op: Op, value: unknown) {
      for (const spelling of SPELLINGS[op]) {
        await expectInvalid(itemsTable, { where: { [slug]: [spelling, value] } }, new RegExp(`^Invalid filter: ${slug}: `));
        await expectInvalid(itemsTable, { filters: [{ column: slug, compare: spelling, value }] }, new RegExp(`^Invalid filter: ${slug}: `));
      }
    }

    it('text: = and != are exact (case-sensitive); != also matches the empty record', async () => {
      await expectMatches('name', 'eq', 'Alpha', ['A']);
      await expectMatches('name', 'eq', 'alpha', []);
      await expectMatches('name', 'ne', 'Alpha', ['B', 'C', 'D', 'E']);
    });

    it('text: < <= > >= compare the lower-cased value, like the sort order; empties never match', async () => {
      await expectMatches('name', 'lt', 'b', ['A', 'E']);
      await expectMatches('name', 'lte', 'beta', ['A', 'B', 'E']);
      await expectMatches('name', 'gt', 'beta', ['C']);
      await expectMatches('name', 'gte', 'BETA', ['B', 'C']);
    });

    it('text: contains, starts with and ends with are case-insensitive', async () => {
      await expectMatches('name', 'contains', 'ALPH', ['A', 'E']);
      await expectMatches('name', 'contains', 'et', ['B', 'E']);
      await expectMatches('name', 'starts_with', 'al', ['A', 'E']);
      await expectMatches('name', 'ends_with', 'SOUP', ['E']);
      await expectMatches('name', 'ends_with', 'A', ['A', 'B', 'C']);
    });

    it('text: empty and not empty (value ignored); = null, = "" and = [] mean empty', async () => {
      await expectMatches('name', 'empty', null, ['D']);
      await expectMatches('name', 'empty', 'ignored', ['D']);
      await expectMatches('name', 'not_empty', 'ignored', ['A', 'B', 'C', 'E']);
      await expectMatches('name', 'eq', null, ['D']);
      await expectMatches('name', 'eq', '', ['D']);
      await expectMatches('name', 'eq', [], ['D']);
      await expectMatches('name', 'ne', '', ['A', 'B', 'C', 'E']);
      await expectMatches('name', 'ne', null, ['A', 'B', 'C', 'E']);
      // The operator may stand alone in `where`.
      expect(labelsOf(await queryIds(itemsTable, { where: { name: ['EMPTY'] } }))).toEqual(['D']);
      // An empty string is stored as empty.
      await expectMatches('notes', 'empty', null, ['C', 'D', 'E']);
    });

    it('text: the equality form of where is =', async () => {
      expect(labelsOf(await queryIds(itemsTable, { where: { name: 'beta' } }))).toEqual(['B']);
      expect(labelsOf(await queryIds(itemsTable, { where: { name: null } }))).toEqual(['D']);
      expect(labelsOf(await queryIds(itemsTable, { where: { name: '' } }))).toEqual(['D']);
      expect(labelsOf(await queryIds(itemsTable, { where: { status: 'Open', amount: 10 } }))).toEqual(['A', 'E']);
    });

    it('longtext: % and _ in a value are literal, never wildcards', async () => {
      await expectMatches('notes', 'contains', '100%', ['A']);
      await expectMatches('notes', 'contains', '%', ['A']);
      await expectMatches('notes', 'contains', 'e_o', ['A']);
      await expectMatches('notes', 'contains', 'n_t', []);
      await expectMatches('notes', 'contains', '1_0', []);
      await expectMatches('notes', 'starts_with', 'first%', []);
      await expectMatches('notes', 'ends_with', '_OK', ['A']);
      await expectMatches('notes', 'contains', 'note', ['A', 'B']);
      await expectMatches('notes', 'ne', 'Second NOTE', ['A', 'C', 'D', 'E']);
    });

    it('email and url: every text operator', async () => {
      await expectMatches('mail', 'eq', 'alpha@example.com', ['A']);
      await expectMatches('mail', 'ne', 'alpha@example.com', ['B', 'C', 'D', 'E']);
      await expectMatches('mail', 'contains', 'EXAMPLE', ['A', 'B']);
      await expectMatches('mail', 'starts_with', 'beta@', ['B']);
      await expectMatches('mail', 'ends_with', '.org', ['B']);
      await expectMatches('mail', 'lt', 'b', ['A']);
      await expectMatches('mail', 'empty', null, ['C', 'D', 'E']);
      await expectMatches('site', 'starts_with', 'HTTPS://', ['A']);
      await expectMatches('site', 'contains', 'beta', ['B']);
      await expectMatches('site', 'ne', 'http://beta.test', ['A', 'C', 'D', 'E']);
      await expectMatches('site', 'gte', 'https', ['A']);
      await expectMatches('site', 'not_empty', null, ['A', 'B']);
    });

    it('number: comparisons, numeric strings, != matching empties', async () => {
      await expectMatches('amount', 'eq', 10, ['A', 'E']);
      await expectMatches('amount', 'eq', '10', ['A', 'E']);
      await expectMatches('amount', 'ne', 10, ['B', 'C', 'D']);
      await expectMatches('amount', 'lt', 0, ['B']);
      await expectMatches('amount', 'lte', 0, ['B', 'C']);
      await expectMatches('amount', 'gt', 0, ['A', 'E']);
      await expectMatches('amount', 'gte', -5.5, ['A', 'B', 'C', 'E']);
      await expectMatches('amount', 'empty', null, ['D']);
      await expectMatches('amount', 'not_empty', null, ['A', 'B', 'C', 'E']);
      await expectMatches('amount', 'eq', null, ['D']);
    });

    it('number: contains / starts with / ends with and non-numbers are 400', async () => {
      await expectNotApplicable('amount', 'contains', '1');
      await expectNotApplicable('amount', 'starts_with', '1');
      await expectNotApplicable('amount', 'ends_with', '1');
      await expectInvalid(itemsTable, { where: { amount: ['C', 1] } }, 'Invalid filter: amount: operator contains does not apply to number fields');
      await expectInvalid(itemsTable, { where: { amount: 'ten' } }, 'Invalid filter: amount: expected a number, got "ten"');
      await expectInvalid(itemsTable, { where: { amount: ['<', true] } }, /^Invalid filter: amount: /);
    });

    it('checkbox: = and != on true/false, unchecked and never-set are both empty', async () => {
      await expectMatches('done', 'eq', true, ['A', 'C']);
      await expectMatches('done', 'eq', false, ['B', 'D', 'E']);
      await expectMatches('done', 'ne', true, ['B', 'D', 'E']);
      await expectMatches('done', 'ne', false, ['A', 'C']);
      await expectMatches('done', 'empty', null, ['B', 'D', 'E']);
      await expectMatches('done', 'not_empty', null, ['A', 'C']);
      await expectNotApplicable('done', 'lt', true);
      await expectNotApplicable('done', 'gte', true);
      await expectNotApplicable('done', 'contains', 'tr');
      await expectInvalid(itemsTable, { where: { done: 'yes' } }, /^Invalid filter: done: /);
    });

    it('single select: =, != (empties included), contains / starts / ends case-insensitive', async () => {
      await expectMatches('status', 'eq', 'Open', ['A', 'E']);
      await expectMatches('status', 'ne', 'Open', ['B', 'C', 'D']);
      await expectMatches('status', 'contains', 'EN', ['A', 'C', 'E']);
      await expectMatches('status', 'starts_with', 'p', ['C']);
      await expectMatches('status', 'ends_with', 'SED', ['B']);
      await expectMatches('status', 'empty', null, ['D']);
      await expectMatches('status', 'not_empty', null, ['A', 'B', 'C', 'E']);
      await expectNotApplicable('status', 'lt', 'Open');
    });

    it('multiple select: = means includes, != does not include, substring operators look at every value', async () => {
      await expectMatches('tags', 'eq', 'blue', ['A', 'B']);
      await expectMatches('tags', 'ne', 'blue', ['C', 'D', 'E']);
      await expectMatches('tags', 'contains', 'RE', ['A', 'C', 'E']);
      await expectMatches('tags', 'starts_with', 'gr', ['C']);
      await expectMatches('tags', 'ends_with', 'UE', ['A', 'B']);
      await expectMatches('tags', 'empty', null, ['D']);
      await expectMatches('tags', 'eq', [], ['D']);
      await expectMatches('tags', 'ne', [], ['A', 'B', 'C', 'E']);
      await expectMatches('tags', 'not_empty', null, ['A', 'B', 'C', 'E']);
      expect(labelsOf(await queryIds(itemsTable, { where: { tags: 'red' } }))).toEqual(['A', 'E']);
      await expectNotApplicable('tags', 'lt', 'red');
      await expectNotApplicable('tags', 'gte', 'red');
    });

    it('user: filters by id, email and object; != matches empties; unknown users match nothing', async () => {
      await expectMatches('owner', 'eq', world.ownerId, ['A', 'E']);
      await expectMatches('owner', 'eq', String(member.id), ['B']);
      await expectMatches('owner', 'eq', world.ownerEmail, ['A', 'E']);
      await expectMatches('owner', 'eq', world.ownerEmail.toUpperCase(), ['A', 'E']);
      await expectMatches('owner', 'eq', { id: member.id }, ['B']);
      await expectMatches('owner', 'eq', { email: member.email }, ['B']);
      await expectMatches('owner', 'ne', world.ownerId, ['B', 'C', 'D']);
      await expectMatches('owner', 'empty', null, ['C', 'D']);
      await expectMatches('owner', 'not_empty', null, ['A', 'B', 'E']);
      await expectMatches('owner', 'eq', 'nobody@example.com', []);
      await expectMatches('owner', 'ne', 'nobody@example.com', ['A', 'B', 'C', 'D', 'E']);
      await expectMatches('owner', 'eq', 2_147_483_648, []);
    });

    it('user: @me is the account owner for an account key and the key user for a personal key', async () => {
      await expectMatches('owner', 'eq', '@me', ['A', 'E']);
      await expectMatches('owner', 'eq', '@me', ['B'], memberKey);
      await expectMatches('owner', 'ne', '@me', ['A', 'C', 'D', 'E'], memberKey);
      await expectMatches('team', 'eq', '@me', ['A']);
      await expectMatches('team', 'eq', '@me', ['A', 'B'], memberKey);
    });

    it('multiple user: = means includes, != does not include', async () => {
      await expectMatches('team', 'eq', member.id, ['A', 'B']);
      await expectMatches('team', 'eq', member.email, ['A', 'B']);
      await expectMatches('team', 'ne', member.id, ['C', 'D', 'E']);
      await expectMatches('team', 'empty', null, ['C', 'D', 'E']);
      await expectMatches('team', 'not_empty', null, ['A', 'B']);
    });

    it('user: ordering and substring operators and non-references are 400', async () => {
      for (const slug of ['owner', 'team']) {
        await expectNotApplicable(slug, 'lt', world.ownerId);
        await expectNotApplicable(slug, 'gt', world.ownerId);
        await expectNotApplicable(slug, 'contains', 'example');
        await expectNotApplicable(slug, 'starts_with', 'owner');
      }
      await expectInvalid(itemsTable, { where: { owner: ['<', 1] } }, 'Invalid filter: owner: operator lt does not apply to user fields');
      await expectInvalid(itemsTable, { where: { owner: true } }, /^Invalid filter: owner: /);
      await expectInvalid(itemsTable, { where: { owner: 1.5 } }, /^Invalid filter: owner: /);
    });

    it('lookup: filters by record id (number, numeric string or {id}); multiple means includes', async () => {
      await expectMatches('ref', 'eq', targets.one, ['A']);
      await expectMatches('ref', 'eq', String(targets.two), ['B']);
      await expectMatches('ref', 'eq', { id: targets.one, title: 'one' }, ['A']);
      await expectMatches('ref', 'ne', targets.one, ['B', 'C', 'D', 'E']);
      await expectMatches('ref', 'empty', null, ['C', 'D', 'E']);
      await expectMatches('ref', 'not_empty', null, ['A', 'B']);
      await expectMatches('ref', 'eq', 2_147_483_648, []);
      await expectMatches('refs', 'eq', targets.one, ['A', 'E']);
      await expectMatches('refs', 'eq', targets.two, ['A', 'B']);
      await expectMatches('refs', 'ne', targets.two, ['C', 'D', 'E']);
      await expectMatches('refs', 'empty', null, ['C', 'D']);
      await expectMatches('refs', 'not_empty', null, ['A', 'B', 'E']);
      for (const slug of ['ref', 'refs']) {
        await expectNotApplicable(slug, 'lt', targets.one);
        await expectNotApplicable(slug, 'contains', 'one');
      }
      await expectInvalid(itemsTable, { where: { ref: 'one' } }, 'Invalid filter: ref: expected a record id, got "one"');
    });

    it('date: every comparison; != matches empties; substring operators and bad values are 400', async () => {
      await expectMatches('day', 'eq', '2024-02-29', ['B']);
      await expectMatches('day', 'ne', '2024-02-29', ['A', 'C', 'D', 'E']);
      await expectMatches('day', 'lt', '2024-03-01', ['B', 'C']);
      await expectMatches('day', 'lte', '2024-03-01', ['A', 'B', 'C']);
      await expectMatches('day', 'gt', '2024-03-01', ['E']);
      await expectMatches('day', 'gte', '2024-03-01', ['A', 'E']);
      await expectMatches('day', 'empty', null, ['D']);
      await expectMatches('day', 'not_empty', null, ['A', 'B', 'C', 'E']);
      await expectNotApplicable('day', 'contains', '2024');
      await expectNotApplicable('day', 'starts_with', '2024');
      await expectNotApplicable('day', 'ends_with', '29');
      await expectInvalid(itemsTable, { where: { day: '2024-02-30' } }, 'Invalid filter: day: expected a YYYY-MM-DD value or a date token, got "2024-02-30"');
      await expectInvalid(itemsTable, { where: { day: ['>', 20240101] } }, /^Invalid filter: day: /);
    });

    it('datetime: every comparison; a date value means 00:00:00', async () => {
      await expectMatches('moment', 'eq', '2024-03-31 15:30:00', ['C']);
      await expectMatches('moment', 'eq', '2024-03-31', ['E']);
      await expectMatches('moment', 'ne', '2024-03-31 15:30:00', ['A', 'B', 'D', 'E']);
      await expectMatches('moment', 'lt', '2024-03-01 08:00:00', ['B']);
      await expectMatches('moment', 'lte', '2024-03-01 08:00:00', ['A', 'B']);
      await expectMatches('moment', 'gt', '2024-03-31 00:00:00', ['C']);
      await expectMatches('moment', 'gte', '2024-03-31 00:00:00', ['C', 'E']);
      await expectMatches('moment', 'empty', null, ['D']);
      await expectNotApplicable('moment', 'contains', '2024');
      // ISO 8601 in UTC means the same datetime; another offset is refused, never converted.
      await expectMatches('moment', 'eq', '2024-03-31T15:30:00Z', ['C']);
      await expectInvalid(itemsTable, { where: { moment: '2024-03-31T17:30:00+02:00' } }, /^Invalid filter: moment: /);
    });

    it('time: every comparison', async () => {
      await expectMatches('clock', 'eq', '08:00:00', ['A']);
      await expectMatches('clock', 'ne', '08:00:00', ['B', 'C', 'D', 'E']);
      await expectMatches('clock', 'lt', '08:00:00', ['E']);
      await expectMatches('clock', 'lte', '08:00:00', ['A', 'E']);
      await expectMatches('clock', 'gt', '15:30:00', ['B']);
      await expectMatches('clock', 'gte', '15:30:00', ['B', 'C']);
      await expectMatches('clock', 'empty', null, ['D']);
      await expectMatches('clock', 'not_empty', null, ['A', 'B', 'C', 'E']);
      await expectNotApplicable('clock', 'contains', '08');
      await expectInvalid(itemsTable, { where: { clock: '24:00:00' } }, /^Invalid filter: clock: /);
    });

    it('file: only empty and not empty apply', async () => {
      await expectMatches('doc', 'empty', null, ['A', 'B', 'C', 'D', 'E']);
      await expectMatches('doc', 'not_empty', null, []);
      await expectMatches('doc', 'eq', [], ['A', 'B', 'C', 'D', 'E']);
      for (const op of ['ne', 'lt', 'contains', 'starts_with', 'ends_with'] as const) await expectNotApplicable('doc', op, 'x.png');
      await expectNotApplicable('doc', 'eq', 'x.png');
    });

    it('id, created_at and updated_at filter like a number and two datetimes', async () => {
      await expectMatches('id', 'eq', item.B, ['B']);
      await expectMatches('id', 'ne', item.B, ['A', 'C', 'D', 'E']);
      await expectMatches('id', 'gt', item.C, ['D', 'E']);
      await expectMatches('id', 'lte', item.A + 0.5, ['A']);
      await expectMatches('id', 'lt', 2_147_483_648, ['A', 'B', 'C', 'D', 'E']);
      await expectMatches('id', 'eq', 1e20, []);
      await expectMatches('created_at', 'eq', '2024-03-31 15:30:00', ['A', 'B', 'C', 'D', 'E']);
      await expectMatches('created_at', 'gte', 'today', ['A', 'B', 'C', 'D', 'E']);
      await expectMatches('updated_at', 'lt', 'today', []);
    });

    it('an unknown field, an unknown operator and a malformed condition are 400 Invalid filter', async () => {
      await expectInvalid(itemsTable, { where: { nope: 1 } }, 'Invalid filter: unknown field "nope"');
      await expectInvalid(itemsTable, { filters: [{ column: 'nope', compare: '=', value: 1 }] }, 'Invalid filter: unknown field "nope"');
      await expectInvalid(itemsTable, { filters: [{ field: 'title', compare: '=', value: 1 }] }, 'Invalid filter: unknown field "title"');
      await expectInvalid(itemsTable, { where: { name: ['LIKE', 'x'] } }, /^Invalid filter: name: unknown operator "LIKE"/);
      await expectInvalid(itemsTable, { filters: [{ column: 'name', compare: 'LIKE', value: 'x' }] }, 'Invalid filter: unknown operator "LIKE"');
      // Aliases are case as given: `eq` and `Contains` are not among them.
      await expectInvalid(itemsTable, { filters: [{ column: 'name', compare: 'eq', value: 'x' }] }, 'Invalid filter: unknown operator "eq"');
      await expectInvalid(itemsTable, { where: { name: ['Contains', 'x'] } }, /^Invalid filter: name: unknown operator "Contains"/);
      await expectInvalid(itemsTable, { where: { name: [] } }, /^Invalid filter: name: /);
      await expectInvalid(itemsTable, { where: { name: ['=', 'a', 'b'] } }, /^Invalid filter: name: /);
      await expectInvalid(itemsTable, { filters: [{ column: 'name', compare: '=' }] }, 'Invalid filter: name: missing value');
      await expectInvalid(itemsTable, { filters: [{ column: 'name', value: 'x' }] }, 'Invalid filter: name: missing compare');
      await expectInvalid(itemsTable, { filters: [{ column: 'name', compare: '=', value: 'x', connector: 'XOR' }] }, /^Invalid filter: name: connector/);
      await expectInvalid(itemsTable, { filters: [{ column: 'name', compare: '=', value: 'x\u0000' }] }, 'Invalid parameters: filters[0].value must not contain NUL characters');
    });
  });

  describe('connectors', () => {
    // A: name = Alpha → {A}; B: status = Closed → {B}; C: amount < 0 → {B}.
    const nameIsAlpha = { column: 'name', compare: '=', value: 'Alpha' };
    const statusClosed = { column: 'status', compare: '=', value: 'Closed' };
    const negative = { column: 'amount', compare: '<', value: 0 };

    it('A OR B AND C is A OR (B AND C): AND binds tighter', async () => {
      const ids = await queryIds(itemsTable, { filters: [nameIsAlpha, { ...statusClosed, connector: 'OR' }, { ...negative, connector: 'AND' }] });
      // (A OR B) AND C would give only B.
      expect(labelsOf(ids)).toEqual(['A', 'B']);
      const other = await queryIds(itemsTable, { filters: [nameIsAlpha, { ...statusClosed, connector: 'OR' }, { column: 'done', compare: '=', value: true }] });
      // A OR (Closed AND done): B is not done. Left to right would give ((A OR B) AND done) = A as well, so also check C:
      expect(labelsOf(other)).toEqual(['A']);
      const withC = await queryIds(itemsTable, { filters: [{ column: 'name', compare: '=', value: 'Gamma' }, { ...nameIsAlpha, connector: 'OR' }, { column: 'done', compare: '=', value: false, connector: 'AND' }] });
      // Gamma OR (Alpha AND not done) = {C}; (Gamma OR Alpha) AND not done = {}.
      expect(labelsOf(withC)).toEqual(['C']);
    });

    it('A AND B OR C AND D is (A AND B) OR (C AND D)', async () => {
      const ids = await queryIds(itemsTable, {
        filters: [
          { column: 'tags', compare: '=', value: 'red' },
          { column: 'amount', compare: '=', value: 10, connector: 'AND' },
          { column: 'status', compare: '=', value: 'Closed', connector: 'OR' },
          { column: 'done', compare: '=', value: false, connector: 'AND' },
        ],
      });
      // {A,E} ∪ ({B} ∩ {B,D,E}); left to right ((A AND B) OR C) AND D would give {B, E}.
      expect(labelsOf(ids)).toEqual(['A', 'B', 'E']);
    });

    it('no connectors means AND; lower-case connectors work; the first connector is always AND', async () => {
      expect(labelsOf(await queryIds(itemsTable, { filters: [{ column: 'amount', compare: '=', value: 10 }, { column: 'done', compare: '=', value: true }] }))).toEqual(['A']);
      expect(labelsOf(await queryIds(itemsTable, { filters: [nameIsAlpha, { ...statusClosed, connector: 'or' }] }))).toEqual(['A', 'B']);
      expect(labelsOf(await queryIds(itemsTable, { filters: [{ ...nameIsAlpha, connector: 'OR' }, { column: 'done', compare: '=', value: false }] }))).toEqual([]);
    });

    it('where and filters combine with AND, around the whole filters expression', async () => {
      const ids = await queryIds(itemsTable, {
        where: { done: true },
        filters: [nameIsAlpha, { column: 'status', compare: '=', value: 'Pending', connector: 'OR' }, { ...statusClosed, connector: 'OR' }],
      });
      // done ∩ (Alpha ∪ Pending ∪ Closed) = {A, C}; B is closed but not done.
      expect(labelsOf(ids)).toEqual(['A', 'C']);
      const two = await queryIds(itemsTable, { where: { amount: ['>=', 0], tags: 'red' }, filters: [{ ...statusClosed }, { ...nameIsAlpha, connector: 'OR' }] });
      expect(labelsOf(two)).toEqual(['A']);
    });

    it('an empty filters list and an empty where restrict nothing', async () => {
      expect(labelsOf(await queryIds(itemsTable, { filters: [], where: {} }))).toEqual(['A', 'B', 'C', 'D', 'E']);
    });

    it('up to 1000 conditions are accepted; more are a 400', async () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => ({ column: 'name', compare: '!=', value: `x${i}`, connector: i % 7 === 0 ? 'OR' : 'AND' }));
      expect(labelsOf(await queryIds(itemsTable, { filters: many(1000) }))).toEqual(['A', 'B', 'C', 'D', 'E']);
      await expectInvalid(itemsTable, { filters: many(1001) }, 'Invalid filter: too many conditions (at most 1000)');
    });
  });

  describe('date tokens', () => {
    let datesTable: number;
    // Expected resolutions at 2024-03-31 15:30:00 UTC, a Sunday, in a leap year.
    const dateTokens: Record<string, string> = {
      today: '2024-03-31',
      now: '2024-03-31',
      yesterday: '2024-03-30',
      start_of_week: '2024-03-25',
      start_of_month: '2024-03-01',
      start_of_year: '2024-01-01',
      start_of_last_week: '2024-03-18',
      start_of_last_month: '2024-02-01',
      start_of_last_year: '2023-01-01',
      '-1d': '2024-03-30',
      '+1d': '2024-04-01',
      '+0d': '2024-03-31',
      '-31d': '2024-02-29',
      '-1w': '2024-03-24',
      '+2w': '2024-04-14',
      '-1m': '2024-02-29',
      '+1m': '2024-04-30',
      '-12m': '2023-03-31',
      '-13m': '2023-02-28',
      '-49m': '2020-02-29',
      '+11m': '2025-02-28',
      '-1y': '2023-03-31',
      '+1y': '2025-03-31',
    };
    const datetimeTokens: Record<string, string> = {
      today: '2024-03-31 00:00:00',
      now: '2024-03-31 15:30:00',
      yesterday: '2024-03-30 00:00:00',
      start_of_week: '2024-03-25 00:00:00',
      start_of_month: '2024-03-01 00:00:00',
      start_of_year: '2024-01-01 00:00:00',
      start_of_last_week: '2024-03-18 00:00:00',
      start_of_last_month: '2024-02-01 00:00:00',
      start_of_last_year: '2023-01-01 00:00:00',
      '-1d': '2024-03-30 15:30:00',
      '+1d': '2024-04-01 15:30:00',
      '-1w': '2024-03-24 15:30:00',
      '+2w': '2024-04-14 15:30:00',
      '-1m': '2024-02-29 15:30:00',
      '+1m': '2024-04-30 15:30:00',
      '-13m': '2023-02-28 15:30:00',
      '-1y': '2023-03-31 15:30:00',
      '+1y': '2025-03-31 15:30:00',
    };

    beforeAll(async () => {
      const table = await createTable(ctx, world, spaceId, {
        name: 'Dates',
        fields: [
          { id: 'day', name: 'Day', type: 'date' },
          { id: 'moment', name: 'Moment', type: 'datetime' },
          { id: 'clock', name: 'Clock', type: 'time' },
        ],
      });
      datesTable = table.id;
      const days = new Set(Object.values(dateTokens));
      // Each date once as a date, and as a datetime both at midnight and at the clock's time of day.
      for (const day of days) {
        await createRecord(datesTable, { day, moment: `${day} 00:00:00` });
        await createRecord(datesTable, { moment: `${day} 15:30:00` });
      }
      for (const clock of ['00:00:00', '15:29:59', '15:30:00', '15:30:01']) await createRecord(datesTable, { clock });
    });

    const values = async (slug: string, body: unknown) => {
      const response = await query(datesTable, { order_by: slug, ...(body as object), limit: 1000 });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.map((record: { data: Record<string, unknown> }) => record.data[slug]);
    };

    it('resolve on a date field to the date, through where and filters', async () => {
      for (const [token, expected] of Object.entries(dateTokens)) {
        expect(await values('day', { where: { day: token } }), token).toEqual([expected]);
        expect(await values('day', { filters: [{ column: 'day', compare: '=', value: token }] }), token).toEqual([expected]);
      }
    });

    it('resolve on a datetime field: today, yesterday and start_of_* at 00:00:00, now and ±N keep the time of day', async () => {
      for (const [token, expected] of Object.entries(datetimeTokens)) {
        expect(await values('moment', { where: { moment: ['=', token] } }), token).toEqual([expected]);
      }
    });

    it('work with every comparison operator', async () => {
      expect(await values('day', { where: { day: ['>=', 'start_of_week'] }, filters: [{ column: 'day', compare: '<', value: 'today' }] })).toEqual(['2024-03-25', '2024-03-30']);
      expect(await values('day', { filters: [{ column: 'day', compare: 'GT', value: '+1w' }] })).toEqual(['2024-04-14', '2024-04-30', '2025-02-28', '2025-03-31']);
      expect(await values('moment', { where: { moment: ['>', 'now'] }, filters: [{ column: 'moment', compare: '<=', value: '+1d' }] })).toEqual(['2024-04-01 00:00:00', '2024-04-01 15:30:00']);
      const notToday = await values('day', { where: { day: ['!=', 'today'] } });
      expect(notToday).not.toContain('2024-03-31');
      // != matches the empty values too: the datetime-only and time-only records have no day.
      expect(notToday.filter((day: unknown) => day === null).length).toBeGreaterThan(0);
    });

    it('on a time field only now is valid (the current time of day)', async () => {
      expect(await values('clock', { where: { clock: 'now' } })).toEqual(['15:30:00']);
      expect(await values('clock', { where: { clock: ['>', 'now'] } })).toEqual(['15:30:01']);
      for (const token of ['today', 'yesterday', 'start_of_week', 'start_of_month', 'start_of_year', 'start_of_last_week', 'start_of_last_month', 'start_of_last_year', '-1d', '+1w', '-1m', '+1y']) {
        await expectInvalid(datesTable, { where: { clock: token } }, `Invalid filter: clock: date token "${token}" is not valid on a time field`);
      }
    });

    it('an unknown or malformed token is 400 Invalid filter', async () => {
      for (const token of ['tomorrow', 'TODAY', '-1q', '1d', '+d', '- 1d', 'start_of_decade', 'now()']) {
        await expectInvalid(datesTable, { where: { day: token } }, `Invalid filter: day: expected a YYYY-MM-DD value or a date token, got "${token}"`);
        await expectInvalid(datesTable, { filters: [{ column: 'moment', compare: '>', value: token }] }, /^Invalid filter: moment: /);
      }
      await expectInvalid(datesTable, { where: { day: '+99999999y' } }, 'Invalid filter: day: date token "+99999999y" is out of range');
    });

    it('are not accepted on writes', async () => {
      const response = await post(`/api/table/${datesTable}/records/create`, { data: { day: 'today' } });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toMatch(/^Invalid value for field day: /);
    });
  });

  describe('date tokens on a leap day', () => {
    const leap = useTestApp({ clock: fixedClock('2024-02-29T10:00:00Z') });
    let leapWorld: World;
    let tableId: number;
    const expected: Record<string, string> = {
      today: '2024-02-29',
      yesterday: '2024-02-28',
      '+1d': '2024-03-01',
      start_of_week: '2024-02-26',
      start_of_last_week: '2024-02-19',
      start_of_month: '2024-02-01',
      start_of_last_month: '2024-01-01',
      '-1m': '2024-01-29',
      '+1m': '2024-03-29',
      '-1y': '2023-02-28',
      '+1y': '2025-02-28',
      '+4y': '2028-02-29',
      '-12m': '2023-02-28',
      '+48m': '2028-02-29',
    };

    beforeAll(async () => {
      leapWorld = await createAccount(leap);
      const space = await createSpace(leap, leapWorld, 'Leap');
      tableId = (await createTable(leap, leapWorld, space.id, { name: 'Leap', fields: [{ id: 'day', name: 'Day', type: 'date' }, { id: 'moment', name: 'Moment', type: 'datetime' }] })).id;
      for (const day of new Set(Object.values(expected))) {
        await call(leap, 'POST', `/api/table/${tableId}/records/create`, { key: leapWorld.accountKey, body: { data: { day, moment: `${day} 10:00:00` } } });
      }
    });

    it('clamp months and years at the month end and keep Feb 29 where it exists', async () => {
      for (const [token, day] of Object.entries(expected)) {
        const response = await call(leap, 'POST', `/api/table/${tableId}/records/query`, { key: leapWorld.accountKey, body: { where: { day: token } } });
        expect(response.body.map((r: { data: { day: string } }) => r.data.day), token).toEqual([day]);
      }
      for (const token of ['-1y', '+4y', '-1m']) {
        const response = await call(leap, 'POST', `/api/table/${tableId}/records/query`, { key: leapWorld.accountKey, body: { where: { moment: token } } });
        expect(response.body.map((r: { data: { moment: string } }) => r.data.moment), token).toEqual([`${expected[token]} 10:00:00`]);
      }
    });
  });

  describe('sorting', () => {
    let sortTable: number;
    type Row = { id: number; data: Record<string, unknown> };
    let rows: Row[];
    const sortable = ['heading', 'body', 'mail', 'site', 'amount', 'done', 'day', 'moment', 'clock', 'status'] as const;
    const texts = ['heading', 'body', 'mail', 'site', 'status'];

    beforeAll(async () => {
      const table = await createTable(ctx, world, spaceId, {
        name: 'Sorting',
        fields: [
          { id: 'heading', name: 'Heading', type: 'text' },
          { id: 'body', name: 'Body', type: 'longtext' },
          { id: 'mail', name: 'Mail', type: 'email' },
          { id: 'site', name: 'Site', type: 'url' },
          { id: 'amount', name: 'Amount', type: 'number' },
          { id: 'done', name: 'Done', type: 'checkbox' },
          { id: 'day', name: 'Day', type: 'date' },
          { id: 'moment', name: 'Moment', type: 'datetime' },
          { id: 'clock', name: 'Clock', type: 'time' },
          { id: 'status', name: 'Status', type: 'select', options: [{ value: 'beta' }, { value: 'Alpha' }, { value: 'alpha' }, { value: 'Émile' }, { value: 'zulu' }] },
          { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'a' }] },
          { id: 'owner', name: 'Owner', type: 'user' },
          { id: 'team', name: 'Team', type: 'user', multiple: true },
          { id: 'ref', name: 'Ref', type: 'lookup', table_id: targetTable },
          { id: 'doc', name: 'Doc', type: 'file' },
        ],
      });
      sortTable = table.id;
      const titles = ['Äpfel', 'apple', 'Zebra', 'zebra', null, 'éclair', 'Banana', 'apple', 'Ölkanne', 'ZEBRA', 'b', 'Apple pie', '10', '9'];
      const bodies = ['x', null, 'X', 'y', 'ß', 'Straße', 'strasse', null, 'Ünïcode', 'under', 'a', 'A', '', 'z'];
      const mails = ['b@x.io', 'A@x.io', null, 'a@x.io', 'c@x.io', 'B@x.io', null, 'é@x.io', 'z@x.io', 'b@x.io', 'a@x.io', null, 'y@x.io', 'x@x.io'];
      const sites = ['https://b.io', 'http://a.io', 'HTTPS://B.IO', null, 'https://a.io', null, 'ftp://z.io', 'https://b.io', 'http://A.io', 'https://ä.io', null, 'http://c.io', 'https://z.io', 'http://b.io'];
      const amounts = [10, -1, null, 2.5, 10, 0, -1, null, 1e6, 2.5, -1e6, 0.001, 10, 3];
      const dones = [true, false, null, true, false, true, null, false, true, true, false, null, true, false];
      const days = ['2024-02-29', null, '2023-12-31', '2024-02-29', '0001-01-01', '9999-12-31', null, '2024-03-01', '2024-02-28', '2024-02-29', null, '2024-01-01', '2000-06-15', '1999-12-31'];
      const moments = ['2024-02-29 10:00:00', '2024-02-29 09:59:59', null, '2024-02-29 10:00:00', '2024-02-29 23:59:59', null, '2023-01-01 00:00:00', '2024-02-29 10:00:00', '2024-03-01 00:00:00', null, '2025-01-01 00:00:00', '2024-02-29 10:00:01', '1970-01-01 00:00:00', '2024-02-29 10:00:00'];
      const clocks = ['12:00:00', null, '00:00:00', '23:59:59', '12:00:00', '09:30:00', null, '12:00:01', '00:00:01', '12:00:00', '18:00:00', null, '06:00:00', '11:59:59'];
      const statuses = ['beta', 'Alpha', null, 'alpha', 'Émile', 'zulu', 'beta', null, 'Alpha', 'zulu', 'alpha', 'beta', null, 'Émile'];
      rows = [];
      for (let i = 0; i < titles.length; i += 1) {
        const data = { heading: titles[i], body: bodies[i], mail: mails[i], site: sites[i], amount: amounts[i], done: dones[i], day: days[i], moment: moments[i], clock: clocks[i], status: statuses[i] };
        // Distinct creation times (and a few later updates) make created_at and updated_at orders meaningful.
        clockAt = new Date(Date.UTC(2024, 0, 1, 0, 0, (i * 7) % 13)).toISOString();
        rows.push(await createRecord(sortTable, data));
      }
      // Each update changes the heading and puts it back (an update that changes nothing writes
      // nothing, updated_at included): the values stay those above, updated_at moves.
      const touch = async (row: { id: number }, heading: string) => {
        await post(`/api/table/${sortTable}/record/${row.id}/update`, { data: { heading: `${heading} (draft)` } });
        await post(`/api/table/${sortTable}/record/${row.id}/update`, { data: { heading } });
      };
      clockAt = new Date(Date.UTC(2024, 0, 2)).toISOString();
      await touch(rows[3], 'zebra');
      clockAt = new Date(Date.UTC(2024, 0, 1, 12)).toISOString();
      await touch(rows[0], 'Äpfel');
      clockAt = FIXED;
      const response = await query(sortTable, { limit: 1000 });
      rows = response.body;
    });

    /** Empties (null) first ascending and last descending, ties by id ascending either way; text by lower-cased UTF-8 bytes. */
    function expectedOrder(slug: string, direction: 'asc' | 'desc', source: Row[] = rows): number[] {
      const keyOf = (row: Row): string | number | null => {
        const value = slug === 'id' ? row.id : slug === 'created_at' || slug === 'updated_at' ? (row as any)[slug] : row.data[slug];
        if (slug === 'done') return value === true ? 1 : 0;
        if (value === null || value === undefined) return null;
        return texts.includes(slug) ? String(value).toLowerCase() : (value as string | number);
      };
      const compareKeys = (a: string | number | null, b: string | number | null) => {
        if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
        if (typeof a === 'string' && typeof b === 'string') return byteCompare(a, b);
        return a < b ? -1 : a > b ? 1 : 0;
      };
      return [...source]
        .sort((a, b) => {
          const order = compareKeys(keyOf(a), keyOf(b));
          return (direction === 'asc' ? order : -order) || a.id - b.id;
        })
        .map((row) => row.id);
    }

    it('orders every sortable type ascending and descending: empties first ascending, last descending, ties by id', async () => {
      for (const slug of sortable) {
        for (const [dir, direction] of [['A', 'asc'], ['D', 'desc']] as const) {
          const ids = await queryIds(sortTable, { order_by: slug, order_dir: dir, limit: 1000 });
          expect(ids, `${slug} ${dir}`).toEqual(expectedOrder(slug, direction));
        }
      }
    });

    it('sorts text by the lower-cased value in the same byte order on both engines, then by id', async () => {
      const titles = async (dir: 'A' | 'D') => (await query(sortTable, { order_by: 'heading', order_dir: dir, fields: ['heading'], limit: 1000 })).body.map((r: Row) => r.data.heading);
      expect(await titles('A')).toEqual(await expectedTitles('asc'));
      expect(await titles('D')).toEqual(await expectedTitles('desc'));
      // Spelled out once: mixed case ties keep id order, non-ASCII letters sort after z.
      const ascending = await titles('A');
      expect(ascending[0]).toBeNull();
      expect(ascending.slice(1).map((t: string) => t.toLowerCase())).toEqual(['10', '9', 'apple', 'apple', 'apple pie', 'b', 'banana', 'zebra', 'zebra', 'zebra', 'äpfel', 'éclair', 'ölkanne']);
      expect(ascending.filter((t: string | null) => t?.toLowerCase() === 'zebra')).toEqual(['Zebra', 'zebra', 'ZEBRA']);
    });

    async function expectedTitles(direction: 'asc' | 'desc') {
      const byId = new Map(rows.map((row) => [row.id, row.data.heading]));
      return expectedOrder('heading', direction).map((id) => byId.get(id));
    }

    it('folds İ and Σ the same way on both engines when filtering and sorting', async () => {
      const greek = (await createTable(ctx, world, spaceId, { name: 'Folding', fields: [{ id: 'word', name: 'Word', type: 'text' }, { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'İZMİR' }, { value: 'ΟΔΟΣ' }] }] })).id;
      const words = ['ΣΟΦΟΣ', 'İstanbul', 'σοφος', 'istanbul', 'ız', 'Iz'];
      const byWord: Record<string, number> = {};
      for (const word of words) byWord[word] = (await createRecord(greek, { word, tags: word === 'İstanbul' ? ['İZMİR'] : word === 'ΣΟΦΟΣ' ? ['ΟΔΟΣ'] : [] })).id;
      const idsOf = (list: string[]) => list.map((word) => byWord[word]);
      // PostgreSQL's lower(): İ → i, Σ → σ (never the final ς); ς sorts before σ, ı after i and z.
      expect(await queryIds(greek, { order_by: 'word' })).toEqual(idsOf(['İstanbul', 'istanbul', 'Iz', 'ız', 'σοφος', 'ΣΟΦΟΣ']));
      expect(await queryIds(greek, { order_by: 'word', order_dir: 'D' })).toEqual(idsOf(['ΣΟΦΟΣ', 'σοφος', 'ız', 'Iz', 'İstanbul', 'istanbul']));
      expect(await queryIds(greek, { where: { word: ['C', 'İST'] } })).toEqual(idsOf(['İstanbul', 'istanbul']));
      expect(await queryIds(greek, { where: { word: ['SW', 'ist'] } })).toEqual(idsOf(['İstanbul', 'istanbul']));
      expect(await queryIds(greek, { where: { word: ['EW', 'ΟΣ'] } })).toEqual(idsOf(['ΣΟΦΟΣ']));
      expect(await queryIds(greek, { where: { word: ['<', 'ΣΟΦΟΣ'] } })).toEqual(idsOf(['İstanbul', 'σοφος', 'istanbul', 'ız', 'Iz']));
      expect(await queryIds(greek, { where: { tags: ['C', 'izmir'] } })).toEqual(idsOf(['İstanbul']));
      expect(await queryIds(greek, { where: { tags: ['EW', 'οσ'] } })).toEqual(idsOf(['ΣΟΦΟΣ']));
    });

    it('orders by id, created_at and updated_at (ties by id)', async () => {
      expect(await queryIds(sortTable, { order_by: 'id', order_dir: 'D', limit: 1000 })).toEqual(rows.map((r) => r.id).reverse());
      expect(await queryIds(sortTable, { order_by: 'id', limit: 1000 })).toEqual(rows.map((r) => r.id));
      for (const slug of ['created_at', 'updated_at']) {
        for (const [dir, direction] of [['A', 'asc'], ['D', 'desc']] as const) {
          expect(await queryIds(sortTable, { order_by: slug, order_dir: dir, limit: 1000 }), `${slug} ${dir}`).toEqual(expectedOrder(slug, direction));
        }
      }
      // The updated record comes last by updated_at, not by created_at.
      const updated = await queryIds(sortTable, { order_by: 'updated_at', order_dir: 'D', limit: 1 });
      expect(updated).toEqual([rows[3].id]);
    });

    it('without order_by sorts by id ascending; order_dir alone does not change that field', async () => {
      expect(await queryIds(sortTable, { limit: 1000 })).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));
      expect(await queryIds(sortTable, { order_dir: 'A', limit: 1000 })).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));
    });

    it('pages over ties with limit and offset without duplicates or gaps', async () => {
      for (const slug of ['amount', 'done', 'status', 'heading', 'created_at']) {
        for (const dir of ['A', 'D']) {
          const full = await queryIds(sortTable, { order_by: slug, order_dir: dir, limit: 1000 });
          for (const pageSize of [1, 3, 4]) {
            const paged: number[] = [];
            for (let offset = 0; offset < full.length + pageSize; offset += pageSize) {
              paged.push(...(await queryIds(sortTable, { order_by: slug, order_dir: dir, limit: pageSize, offset })));
            }
            expect(paged, `${slug} ${dir} by ${pageSize}`).toEqual(full);
          }
        }
      }
    });

    it('order_by on a multi-valued, user, lookup, file or unknown field is 400 Invalid order_by', async () => {
      for (const slug of ['tags', 'owner', 'team', 'ref', 'doc', 'nope', 'title', 'Heading', '_search', 'created_by']) {
        for (const order_dir of ['A', 'D']) await expectInvalid(sortTable, { order_by: slug, order_dir }, `Invalid order_by: ${slug}`);
      }
      const count = await post(`/api/table/${sortTable}/records/ids`, { order_by: 'tags' });
      expect(count.status).toBe(400);
      expect(count.body.error.message).toBe('Invalid order_by: tags');
    });

    it('order_dir other than A or D is 400', async () => {
      for (const order_dir of ['asc', 'a', 'DESC', '']) await expectInvalid(sortTable, { order_by: 'heading', order_dir }, /^Invalid parameters: order_dir/);
    });
  });

  describe('limit and offset', () => {
    let manyTable: number;
    let manyIds: number[];
    /** Ids by descending n (parallel creates on PostgreSQL need not assign ids in n order). */
    let byNDescending: number[];

    beforeAll(async () => {
      manyTable = (await createTable(ctx, world, spaceId, { name: 'Many', fields: [{ id: 'n', name: 'N', type: 'number' }] })).id;
      const actor = await ctx.container.services.keys.authenticateKey(world.accountKey, '127.0.0.1');
      const created = await Promise.all(Array.from({ length: 130 }, (_, n) => ctx.container.services.records.createRecord(actor, manyTable, { data: { n } })));
      manyIds = created.map((record) => record.id).sort((a, b) => a - b);
      byNDescending = [...created].sort((a, b) => (b.data.n as number) - (a.data.n as number)).map((record) => record.id);
    });

    it('default to limit 100 and offset 0', async () => {
      expect(await queryIds(manyTable, {})).toEqual(manyIds.slice(0, 100));
      expect(await queryIds(manyTable, { offset: 0 })).toEqual(manyIds.slice(0, 100));
      expect(await queryIds(manyTable, { offset: 100 })).toEqual(manyIds.slice(100));
    });

    it('accept limit 1 to 1000 and any offset from 0', async () => {
      expect(await queryIds(manyTable, { limit: 1 })).toEqual(manyIds.slice(0, 1));
      expect(await queryIds(manyTable, { limit: 1000 })).toEqual(manyIds);
      expect(await queryIds(manyTable, { limit: 7, offset: 125 })).toEqual(manyIds.slice(125));
      expect(await queryIds(manyTable, { limit: 5, offset: 130 })).toEqual([]);
      expect(await queryIds(manyTable, { offset: 1_000_000 })).toEqual([]);
      expect(await queryIds(manyTable, { limit: 3, offset: 2, order_by: 'n', order_dir: 'D' })).toEqual(byNDescending.slice(2, 5));
    });

    it('refuse out-of-range or non-integer values with exactly Invalid parameters: limit / offset', async () => {
      for (const limit of [0, 1001, -1, 1.5, '10', null, true, [10], {}, 1e21]) {
        await expectInvalid(manyTable, { limit }, 'Invalid parameters: limit');
      }
      for (const offset of [-1, 1.5, '10', '0', null, false, [0], -0.5]) {
        await expectInvalid(manyTable, { offset }, 'Invalid parameters: offset');
      }
      await expectInvalid(manyTable, { limit: 0, offset: -1 }, /^Invalid parameters: (limit|offset)$/);
    });
  });

  describe('fields whitelist', () => {
    it('narrows data to the listed slugs and keeps id, title and timestamps', async () => {
      const response = await query(itemsTable, { fields: ['amount', 'name'], where: { name: 'Alpha' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([{ id: item.A, title: 'Alpha', created_at: '2024-03-31 15:30:00', updated_at: '2024-03-31 15:30:00', data: { amount: 10, name: 'Alpha' } }]);
      expect(Object.keys(response.body[0].data).sort()).toEqual(['amount', 'name']);
    });

    it('an empty list gives empty data; filters and order may use fields outside the list', async () => {
      const response = await query(itemsTable, { fields: [], where: { tags: 'red' }, order_by: 'amount', order_dir: 'D' });
      expect(response.body.map((r: { data: object }) => r.data)).toEqual([{}, {}]);
      const other = await query(itemsTable, { fields: ['tags', 'owner', 'refs'], where: { name: 'Alpha' } });
      expect(other.body[0].data).toEqual({
        tags: ['red', 'blue'],
        owner: { id: world.ownerId, email: world.ownerEmail, name: 'Owner' },
        refs: [
          { id: targets.one, title: 'one' },
          { id: targets.two, title: 'two' },
        ],
      });
    });

    it('an unknown slug is 400 Invalid field: <slug>', async () => {
      await expectInvalid(itemsTable, { fields: ['nope'] }, 'Invalid field: nope');
      await expectInvalid(itemsTable, { fields: ['name', 'Name'] }, 'Invalid field: Name');
      await expectInvalid(itemsTable, { fields: ['name', ''] }, 'Invalid field: ');
    });
  });
});
