import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/shared/clock.js';
import { fixedClock } from '../../src/shared/clock.js';
import { useSecondApp, useTestApp, type TestContext } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, login, type World } from '../factories.js';

/**
 * Queries, counts and ids through saved views (seed "Query body", "Filter object", "Views";
 * CONTRACT §4): connectors and aliases, date tokens resolved at each query, `@me` resolved to
 * each caller, the view's sort, `append_filters`, fields deleted after the view was saved, and a
 * view changed by another process.
 */

/** The server clock of this file: 2024-03-31 15:30:00 UTC (a Sunday) unless a test moves it. */
const FIXED = '2024-03-31T15:30:00Z';
let clockAt = FIXED;
const movableClock: Clock = { now: () => fixedClock(clockAt).now() };

type Body = Record<string, unknown>;

describe('queries through saved views', () => {
  const ctx = useTestApp({ clock: movableClock });
  let world: World;
  let tableId: number;
  let ownerSession: string;
  let member: { id: number; email: string };
  let memberKey: string;
  let memberSession: string;
  let ownerPersonalKey: string;
  let saved = 0;

  const post = (target: TestContext, path: string, body: unknown, auth: { key?: string; cookie?: string }) => call(target, 'POST', path, { ...auth, body });
  const records = (path: 'query' | 'count' | 'ids', body: unknown, auth: { key?: string; cookie?: string } = { key: world.accountKey }, target = ctx) =>
    post(target, `/api/table/${tableId}/records/${path}`, body, auth);

  /** Saves a view in the owner's session; fails the test on anything but 200. */
  async function saveView(body: Body, target = ctx): Promise<{ id: number; filters: unknown[] }> {
    const response = await post(target, `/api/table/${tableId}/views/create`, { type: 'grid', ...body }, { cookie: ownerSession });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  /**
   * The names a body answers with records/query, after checking that records/ids answers the
   * same records in the same order and records/count their number.
   */
  async function namesOf(body: Body, auth: { key?: string; cookie?: string } = { key: world.accountKey }, target = ctx): Promise<string[]> {
    const query = await records('query', body, auth, target);
    expect(query.status, JSON.stringify(query.body)).toBe(200);
    const ids = await records('ids', body, auth, target);
    expect(ids.status, JSON.stringify(ids.body)).toBe(200);
    expect(ids.body, 'ids through the same body').toEqual(query.body.map((record: { id: number }) => record.id));
    const count = await records('count', body, auth, target);
    expect(count.status, JSON.stringify(count.body)).toBe(200);
    expect(count.body, 'count through the same body').toMatchObject({ count: query.body.length, total: 5, total_approx: false });
    return query.body.map((record: { data: { name: string } }) => record.data.name);
  }

  /** A view saved with `filters` (and a sort) answers exactly what the same body without a view answers; both are returned. */
  async function viewAndPlain(query: { filters: unknown[]; order_by?: string; order_dir?: string }): Promise<string[]> {
    const view = await saveView({ name: `View ${(saved += 1)}`, ...query });
    const through = await namesOf({ view_id: view.id });
    expect(through).toEqual(await namesOf(query));
    expect((await records('count', { view_id: view.id })).body.restricted).toBe(true);
    return through;
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Views queries')).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Tasks',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'amount', name: 'Amount', type: 'number' },
          { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }, { value: 'lost' }] },
          { id: 'due', name: 'Due', type: 'date' },
          { id: 'assignee', name: 'Assignee', type: 'user' },
          { id: 'notes', name: 'Notes', type: 'text' },
        ],
      })
    ).id;
    ownerSession = await login(ctx, world.ownerEmail, world.ownerPassword);
    const user = await createUser(ctx, world, 'Mia Member');
    member = { id: user.id, email: user.email };
    await addMember(ctx, world, spaceId, member.id, 'editor');
    memberKey = (await createKey(ctx, { userId: member.id })).key;
    memberSession = await login(ctx, member.email, 'user-password');
    ownerPersonalKey = (await createKey(ctx, { userId: world.ownerId })).key;
    const rows: Array<[string, number, string, string, number | null, string | null]> = [
      ['alpha', 10, 'lead', '2024-03-31', world.ownerId, 'Red apple'],
      ['beta', 50, 'won', '2024-03-25', member.id, ''],
      ['gamma', 30, 'won', '2024-03-01', world.ownerId, 'green pear'],
      ['delta', 70, 'lost', '2024-02-20', member.id, null],
      ['epsilon', 90, 'lead', '2024-04-02', null, 'red plum'],
    ];
    for (const [name, amount, stage, due, assignee, notes] of rows) {
      const response = await post(ctx, `/api/table/${tableId}/records/create`, { data: { name, amount, stage, due, assignee, notes } }, { key: world.accountKey });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
  });

  afterEach(() => {
    clockAt = FIXED;
  });

  describe('connectors', () => {
    it('AND binds tighter than OR: lost OR (amount < 40 AND won), not ((lost OR amount < 40) AND won)', async () => {
      const filters = [
        { column: 'stage', compare: '=', value: 'lost' },
        { column: 'amount', compare: '<', value: 40, connector: 'OR' },
        { column: 'stage', compare: '=', value: 'won', connector: 'AND' },
      ];
      expect(await viewAndPlain({ filters, order_by: 'amount', order_dir: 'D' })).toEqual(['delta', 'gamma']);
    });

    it('A AND B OR C AND D is (A AND B) OR (C AND D); lower-case connectors and `field` for `column` too', async () => {
      const filters = [
        { column: 'stage', compare: '=', value: 'lead' },
        { field: 'amount', compare: '>', value: 50, connector: 'and' },
        { column: 'stage', compare: '=', value: 'won', connector: 'or' },
        { column: 'amount', compare: '<', value: 40 },
      ];
      expect(await viewAndPlain({ filters })).toEqual(['gamma', 'epsilon']);
    });

    it('without connectors every filter is AND-ed; the first filter\'s OR is ignored', async () => {
      const filters = [
        { column: 'stage', compare: '=', value: 'won', connector: 'OR' },
        { column: 'amount', compare: '>', value: 40 },
      ];
      expect(await viewAndPlain({ filters })).toEqual(['beta']);
    });
  });

  describe('aliases', () => {
    const cases: Array<[string, unknown[], string[]]> = [
      ['EQ', [{ column: 'stage', compare: 'EQ', value: 'won' }], ['beta', 'gamma']],
      ['NE / NEQ', [{ column: 'stage', compare: 'NE', value: 'won' }, { column: 'stage', compare: 'NEQ', value: 'lost' }], ['alpha', 'epsilon']],
      ['GT / LTE', [{ column: 'amount', compare: 'GT', value: 10 }, { column: 'amount', compare: 'LTE', value: 50 }], ['beta', 'gamma']],
      ['GTE / LT', [{ column: 'amount', compare: 'GTE', value: 50 }, { column: 'amount', compare: 'LT', value: 90 }], ['beta', 'delta']],
      ['C (case-insensitive)', [{ column: 'notes', compare: 'C', value: 'RED' }], ['alpha', 'epsilon']],
      ['CONTAINS / contains', [{ column: 'notes', compare: 'CONTAINS', value: 'p' }, { column: 'notes', compare: 'contains', value: 'e', connector: 'OR' }], ['alpha', 'gamma', 'epsilon']],
      ['SW / EW', [{ column: 'name', compare: 'SW', value: 'ep' }, { column: 'name', compare: 'EW', value: 'ta', connector: 'OR' }], ['beta', 'delta', 'epsilon']],
      ['STARTS_WITH / ends_with', [{ column: 'notes', compare: 'STARTS_WITH', value: 'red' }, { column: 'notes', compare: 'ends_with', value: 'PLUM' }], ['epsilon']],
      ['EMPTY (null and "")', [{ column: 'notes', compare: 'EMPTY' }], ['beta', 'delta']],
      ['IS_EMPTY on a user field', [{ column: 'assignee', compare: 'IS_EMPTY', value: 'ignored' }], ['epsilon']],
      ['NEMPTY / is_not_empty', [{ column: 'notes', compare: 'NEMPTY' }, { column: 'assignee', compare: 'is_not_empty' }], ['alpha', 'gamma']],
    ];
    for (const [name, filters, expected] of cases) {
      it(`${name}: a view answers what the same filters answer`, async () => {
        expect(await viewAndPlain({ filters })).toEqual(expected);
      });
    }
  });

  describe('date tokens are resolved at each query, against the clock of that moment', () => {
    it('the view keeps the tokens as written; moving the clock changes what the same view answers', async () => {
      const lastWeek = await saveView({ name: 'Last 7 days', filters: [{ column: 'due', compare: '>=', value: '-7d' }, { column: 'due', compare: '<=', value: 'today' }], order_by: 'due', order_dir: 'D' });
      const thisMonth = await saveView({ name: 'This month', filters: [{ column: 'due', compare: '>=', value: 'start_of_month' }], order_by: 'due' });
      expect(lastWeek.filters).toEqual([{ column: 'due', compare: '>=', value: '-7d' }, { column: 'due', compare: '<=', value: 'today' }]);
      expect((await call(ctx, 'GET', `/api/table/${tableId}/view/${thisMonth.id}/get`, { key: world.accountKey })).body.filters).toEqual([{ column: 'due', compare: '>=', value: 'start_of_month' }]);

      // 2024-03-31: -7d is 03-24, start_of_month 03-01.
      expect(await namesOf({ view_id: lastWeek.id })).toEqual(['alpha', 'beta']);
      expect(await namesOf({ view_id: thisMonth.id })).toEqual(['gamma', 'beta', 'alpha', 'epsilon']);

      clockAt = '2024-04-03T09:00:00Z';
      // 2024-04-03: -7d is 03-27, start_of_month 04-01.
      expect(await namesOf({ view_id: lastWeek.id })).toEqual(['epsilon', 'alpha']);
      expect(await namesOf({ view_id: thisMonth.id })).toEqual(['epsilon']);

      clockAt = '2024-03-02T00:00:00Z';
      expect(await namesOf({ view_id: lastWeek.id })).toEqual(['gamma']);
      expect(await namesOf({ view_id: thisMonth.id })).toEqual(['gamma', 'beta', 'alpha', 'epsilon']);
    });

    it('a token the field type refuses is refused when the view is saved', async () => {
      const response = await post(ctx, `/api/table/${tableId}/views/create`, { name: 'Bad token', filters: [{ column: 'due', compare: '>=', value: '-7x' }] }, { cookie: ownerSession });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_filter');
    });
  });

  describe('@me', () => {
    it('resolves to the caller of each query: the owner for account keys, the user for personal keys and sessions', async () => {
      const mine = await saveView({ name: 'Mine', filters: [{ column: 'assignee', compare: '=', value: '@me' }], order_by: 'name' });
      expect(mine.filters).toEqual([{ column: 'assignee', compare: '=', value: '@me' }]);
      expect(await namesOf({ view_id: mine.id }, { key: world.accountKey })).toEqual(['alpha', 'gamma']);
      expect(await namesOf({ view_id: mine.id }, { key: ownerPersonalKey })).toEqual(['alpha', 'gamma']);
      expect(await namesOf({ view_id: mine.id }, { cookie: ownerSession })).toEqual(['alpha', 'gamma']);
      expect(await namesOf({ view_id: mine.id }, { key: memberKey })).toEqual(['beta', 'delta']);
      expect(await namesOf({ view_id: mine.id }, { cookie: memberSession })).toEqual(['beta', 'delta']);
      // And again with the account key: nothing of the member's answer was kept for it.
      expect(await namesOf({ view_id: mine.id }, { key: world.accountKey })).toEqual(['alpha', 'gamma']);
    });

    it('!= @me keeps the empty values', async () => {
      const notMine = await saveView({ name: 'Not mine', filters: [{ column: 'assignee', compare: '!=', value: '@me' }], order_by: 'name' });
      expect(await namesOf({ view_id: notMine.id }, { key: memberKey })).toEqual(['alpha', 'epsilon', 'gamma']);
    });
  });

  describe('sort', () => {
    it("the view's order_by and order_dir D replace the request's, for query and ids", async () => {
      const byAmount = await saveView({ name: 'By amount', filters: [], order_by: 'amount', order_dir: 'D' });
      expect(await namesOf({ view_id: byAmount.id, order_by: 'name', order_dir: 'A' })).toEqual(['epsilon', 'delta', 'beta', 'gamma', 'alpha']);
      // A view without filters narrows nothing.
      expect((await records('count', { view_id: byAmount.id })).body).toEqual({ count: 5, total: 5, total_approx: false, restricted: false });
      const byName = await saveView({ name: 'By name', filters: [{ column: 'stage', compare: '!=', value: 'lost' }], order_by: 'name', order_dir: 'D' });
      expect(await namesOf({ view_id: byName.id })).toEqual(['gamma', 'epsilon', 'beta', 'alpha']);
      const page = await records('query', { view_id: byName.id, limit: 2, offset: 1 });
      expect(page.body.map((record: { data: { name: string } }) => record.data.name)).toEqual(['epsilon', 'beta']);
    });

    it('a view without a sort answers in id order, whatever the request asks', async () => {
      const unsorted = await saveView({ name: 'Unsorted', filters: [{ column: 'amount', compare: '>', value: 20 }] });
      expect(await namesOf({ view_id: unsorted.id, order_by: 'amount', order_dir: 'D' })).toEqual(['beta', 'gamma', 'delta', 'epsilon']);
    });
  });

  describe('append_filters', () => {
    let open: { id: number };
    beforeAll(async () => {
      open = await saveView({ name: 'Open', filters: [{ column: 'stage', compare: '!=', value: 'lost' }], order_by: 'amount', order_dir: 'D' });
    });

    it('without it, the request\'s where and filters are ignored', async () => {
      expect(await namesOf({ view_id: open.id, where: { amount: ['>', 20] }, filters: [{ column: 'name', compare: 'SW', value: 'g' }] })).toEqual(['epsilon', 'beta', 'gamma', 'alpha']);
      expect(await namesOf({ view_id: open.id, append_filters: false, where: { amount: ['>', 20] } })).toEqual(['epsilon', 'beta', 'gamma', 'alpha']);
    });

    it('with it, where and filters are AND-ed to the view\'s filters (filters keep their own connectors); the sort stays the view\'s', async () => {
      expect(await namesOf({ view_id: open.id, append_filters: true, where: { amount: ['>', 20] } })).toEqual(['epsilon', 'beta', 'gamma']);
      const either = [
        { column: 'name', compare: 'SW', value: 'g' },
        { column: 'name', compare: 'SW', value: 'a', connector: 'OR' },
      ];
      // The view's `!= lost` applies to both sides of the request's OR.
      expect(await namesOf({ view_id: open.id, append_filters: true, filters: either })).toEqual(['gamma', 'alpha']);
      expect(await namesOf({ view_id: open.id, append_filters: true, filters: either, where: { amount: ['>', 20] }, order_by: 'name' })).toEqual(['gamma']);
      expect(await namesOf({ view_id: open.id, append_filters: true, search: 'plum' })).toEqual(['epsilon']);
    });

    it('appended conditions are checked like a query\'s: 400 naming the problem', async () => {
      const response = await records('query', { view_id: open.id, append_filters: true, where: { nope: 1 } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_filter');
    });
  });

  describe('a field deleted after the view was saved', () => {
    async function temporaryField(slug: string): Promise<() => Promise<void>> {
      const created = await post(ctx, `/api/table/${tableId}/fields/create`, { id: slug, name: slug, type: 'number' }, { key: world.accountKey });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      return async () => {
        expect((await post(ctx, `/api/table/${tableId}/field/${slug}/delete`, {}, { key: world.accountKey })).status).toBe(200);
      };
    }

    it('in the filters: 400 invalid_filter on query, count and ids; the view can still be read and repaired', async () => {
      const drop = await temporaryField('score');
      const view = await saveView({ name: 'On score', filters: [{ column: 'score', compare: 'EMPTY' }] });
      expect(await namesOf({ view_id: view.id })).toHaveLength(5);
      await drop();
      for (const path of ['query', 'count', 'ids'] as const) {
        const answer = await records(path, { view_id: view.id });
        expect(answer.status, path).toBe(400);
        expect(answer.body.error).toEqual({ code: 'invalid_filter', message: expect.stringContaining('score') });
      }
      expect((await call(ctx, 'GET', `/api/table/${tableId}/view/${view.id}/get`, { key: world.accountKey })).body.filters).toEqual([{ column: 'score', compare: 'EMPTY' }]);
      const repaired = await post(ctx, `/api/table/${tableId}/view/${view.id}/update`, { filters: [{ column: 'amount', compare: '>', value: 60 }] }, { cookie: ownerSession });
      expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
      expect(await namesOf({ view_id: view.id })).toEqual(['delta', 'epsilon']);
    });

    it('in order_by: 400 invalid_order_by (never a silent change of order); a rename still works, a repair sets a new sort', async () => {
      const drop = await temporaryField('rank');
      const view = await saveView({ name: 'By rank', filters: [{ column: 'amount', compare: '>', value: 20 }], order_by: 'rank', order_dir: 'D' });
      expect(await namesOf({ view_id: view.id })).toEqual(['beta', 'gamma', 'delta', 'epsilon']);
      await drop();
      for (const path of ['query', 'count', 'ids'] as const) {
        const answer = await records(path, { view_id: view.id });
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 400, body: { error: { code: 'invalid_order_by', message: 'Invalid order_by: rank' } } });
      }
      const listed = await call(ctx, 'GET', `/api/table/${tableId}/views/list`, { key: world.accountKey });
      expect(listed.body).toContainEqual(expect.objectContaining({ id: view.id, order_by: 'rank' }));
      const renamed = await post(ctx, `/api/table/${tableId}/view/${view.id}/update`, { name: 'By rank (broken)' }, { cookie: ownerSession });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      const keptSort = await post(ctx, `/api/table/${tableId}/view/${view.id}/update`, { filters: [] }, { cookie: ownerSession });
      expect({ status: keptSort.status, code: keptSort.body.error?.code }).toEqual({ status: 400, code: 'invalid_order_by' });
      const repaired = await post(ctx, `/api/table/${tableId}/view/${view.id}/update`, { order_by: 'amount' }, { cookie: ownerSession });
      expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
      expect(repaired.body).toMatchObject({ order_by: 'amount', order_dir: 'D' });
      expect(await namesOf({ view_id: view.id })).toEqual(['epsilon', 'delta', 'beta', 'gamma']);
    });
  });

  describe('views/list', () => {
    it('lists saved views by name as queries sort text (case-insensitive code-point order, then id), on both engines', async () => {
      const other = (await createTable(ctx, world, (await createSpace(ctx, world, 'List order')).id, { name: 'Order', fields: [{ name: 'Name', type: 'text' }] })).id;
      for (const name of ['beta', 'Zulu', 'Alpha', 'apple', 'Émile', 'alpha']) {
        const response = await post(ctx, `/api/table/${other}/views/create`, { name }, { cookie: ownerSession });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
      }
      const listed = await call(ctx, 'GET', `/api/table/${other}/views/list`, { key: world.accountKey });
      expect(listed.body.map((view: { name: string }) => view.name)).toEqual(['Default', 'Alpha', 'alpha', 'apple', 'beta', 'Zulu', 'Émile']);
    });
  });

  describe('a view changed by another process', () => {
    /** A second process serving the same database. */
    const other = useSecondApp(ctx, { clock: movableClock });

    it('is seen at once: new filters and sort, then its deletion, then a view created there', async () => {
      const view = await saveView({ name: 'Shared', filters: [{ column: 'stage', compare: '=', value: 'won' }], order_by: 'amount' });
      expect(await namesOf({ view_id: view.id })).toEqual(['gamma', 'beta']);
      expect(await namesOf({ view_id: view.id }, { key: world.accountKey }, other)).toEqual(['gamma', 'beta']);

      const changed = await post(other, `/api/table/${tableId}/view/${view.id}/update`, { filters: [{ column: 'stage', compare: '=', value: 'lead' }], order_dir: 'D' }, { cookie: ownerSession });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(await namesOf({ view_id: view.id })).toEqual(['epsilon', 'alpha']);
      expect(await namesOf({ view_id: view.id }, { key: memberKey })).toEqual(['epsilon', 'alpha']);

      expect((await post(other, `/api/table/${tableId}/view/${view.id}/delete`, {}, { cookie: ownerSession })).body).toEqual({ id: view.id, deleted: true });
      for (const path of ['query', 'count', 'ids'] as const) {
        const answer = await records(path, { view_id: view.id });
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 500, body: { error: { code: 'view_not_found', message: 'View not found' } } });
      }

      // An id this process has just been told does not exist, created by the other process.
      const next = view.id + 1;
      expect((await records('query', { view_id: next })).status).toBe(500);
      const created = await saveView({ name: 'Created elsewhere', filters: [{ column: 'amount', compare: '<', value: 40 }] }, other);
      expect(created.id).toBe(next);
      expect(await namesOf({ view_id: next })).toEqual(['alpha', 'gamma']);
    });

    it('a field the view uses, deleted by the other process: 400, not a stale answer or a 500', async () => {
      const created = await post(ctx, `/api/table/${tableId}/fields/create`, { id: 'weight', name: 'Weight', type: 'number' }, { key: world.accountKey });
      expect(created.status).toBe(200);
      const view = await saveView({ name: 'Weightless', filters: [{ column: 'weight', compare: 'EMPTY' }] });
      expect(await namesOf({ view_id: view.id })).toHaveLength(5);
      expect((await post(other, `/api/table/${tableId}/field/weight/delete`, {}, { key: world.accountKey })).status).toBe(200);
      const answer = await records('query', { view_id: view.id });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_filter');
    });
  });
});
