import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

/**
 * comments/get paging (seed "Comment paging"; docs/api.md "Comments"): offset 0 is the newest
 * `limit` comments, a larger offset pages back, each page is ordered oldest to newest. 1,000
 * comments on one record, all with the same timestamp (the clock stands still), paged both
 * ways with several limits: no repeats, no gaps. Then what a client walking the pages sees
 * when comments are posted or deleted between two reads (offsets count from the newest, so
 * every comment posted shifts the older pages by one; see docs/decisions.md).
 */

interface Comment {
  id: number;
  content: string;
  created_at: string;
}

const total = 1000;
const stamp = '2024-05-01 10:00:00';

describe('comments/get paging over 1,000 comments with one timestamp', () => {
  const ctx = useTestApp({ clock: { now: () => new Date('2024-05-01T10:00:00Z') } });
  let world: World;
  let tableId: number;
  let recordId: number;
  /** Every comment id of the record, oldest first: the model the pages are checked against. */
  let ids: number[];

  const thread = () => `/api/table/${tableId}/record/${recordId}`;
  async function page(limit: number, offset: number): Promise<Comment[]> {
    const response = await call(ctx, 'GET', `${thread()}/comments/get?limit=${limit}&offset=${offset}`, { key: world.accountKey });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }
  const idsOf = (comments: Comment[]) => comments.map((comment) => comment.id);
  async function post(content: string): Promise<number> {
    const response = await call(ctx, 'POST', `${thread()}/comments/create`, { key: world.accountKey, body: { content } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.id;
  }
  async function remove(id: number): Promise<void> {
    const response = await call(ctx, 'POST', `${thread()}/comment/${id}/delete`, { key: world.accountKey, body: {} });
    expect(response.body).toEqual({ id, deleted: true });
  }
  /** The model's page: what comments/get must answer now. */
  const expected = (limit: number, offset: number) => ids.slice(Math.max(0, ids.length - offset - limit), Math.max(0, ids.length - offset));

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Paging');
    tableId = (await createTable(ctx, world, space.id, { name: 'Threads', fields: [{ name: 'Name', type: 'text' }] })).id;
    recordId = (await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: {} } })).body.id;
    ids = [];
    for (let i = 1; i <= total; i += 1) ids.push(await post(`c${i}`));
  });

  it('posts 1,000 comments with one timestamp and increasing ids', async () => {
    const all = (await page(100, 0)).concat(await page(100, 900));
    expect(new Set(all.map((comment) => comment.created_at))).toEqual(new Set([stamp]));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  for (const limit of [1, 7, 100]) {
    it(`pages newest to oldest with limit ${limit}, then oldest to newest, each page ordered oldest to newest: every comment once`, async () => {
      const offsets = Array.from({ length: Math.ceil(total / limit) }, (_, i) => i * limit);
      const older: number[] = [];
      for (const offset of offsets) {
        const got = await page(limit, offset);
        expect(got.length).toBe(Math.min(limit, total - offset));
        expect(idsOf(got)).toEqual([...idsOf(got)].sort((a, b) => a - b));
        older.unshift(...idsOf(got));
      }
      expect(await page(limit, total)).toEqual([]);
      expect(older).toEqual(ids);

      const newer: number[] = [];
      for (const offset of [...offsets].reverse()) newer.push(...idsOf(await page(limit, offset)));
      expect(newer).toEqual(ids);
      expect(new Set(newer).size).toBe(total);
    });
  }

  it('pages hold the same comments, content included, as the model says', async () => {
    const got = await page(7, 993);
    expect(idsOf(got)).toEqual(expected(7, 993));
    expect(got.map((comment) => comment.content)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    expect((await page(3, 998)).map((comment) => comment.content)).toEqual(['c1', 'c2']);
  });

  it('walking older while comments are posted: each new comment repeats one already seen on the next page, never a gap', async () => {
    const first = await page(100, 0);
    expect(idsOf(first)).toEqual(expected(100, 0));
    ids.push(await post('new 1'));
    const second = idsOf(await page(100, 100));
    // The oldest comment of the first page comes again as the newest of the second.
    expect(second.at(-1)).toBe(first[0].id);
    ids.push(await post('new 2'), await post('new 3'));
    const third = idsOf(await page(100, 200));
    // Two posted since the last read: the two newest of the third page were the two oldest of the second.
    expect(third.slice(-2)).toEqual(second.slice(0, 2));
    expect(third).not.toContain(second[2]);
    // Deduplicated by id, the walk has every comment from the oldest it reached to the newest it read, none missing.
    const seen = [...new Set([...third, ...second, ...idsOf(first)])].sort((a, b) => a - b);
    expect(seen).toEqual(ids.slice(ids.indexOf(third[0]), ids.indexOf(first.at(-1)!.id) + 1));
    // The new comments are at offset 0.
    expect((await page(3, 0)).map((comment) => comment.content)).toEqual(['new 1', 'new 2', 'new 3']);
  });

  it('walking newer (from a deep page toward offset 0) while a comment is posted: one comment is skipped (a walk older from offset 0 finds it)', async () => {
    const deep = idsOf(await page(100, 200));
    ids.push(await post('new 4'));
    const middle = idsOf(await page(100, 100));
    const newest = idsOf(await page(100, 0));
    // The comment just newer than the deep page moved into it: the walk never sees it.
    const skipped = ids[ids.indexOf(deep.at(-1)!) + 1];
    expect(middle[0]).toBe(ids[ids.indexOf(skipped) + 1]);
    expect([...deep, ...middle, ...newest]).not.toContain(skipped);
    // Nothing else is missing or repeated: the middle and newest pages join, and end at the new comment.
    expect(newest[0]).toBe(ids[ids.indexOf(middle.at(-1)!) + 1]);
    expect(newest.at(-1)).toBe(ids.at(-1));
    // Walking older again from offset 0 finds it: it is now the newest of the deep page.
    expect(idsOf(await page(100, 200)).at(-1)).toBe(skipped);
  });

  it('walking older while a newer comment is deleted: the next page skips one comment', async () => {
    const first = idsOf(await page(50, 0));
    const gone = first[10];
    await remove(gone);
    ids.splice(ids.indexOf(gone), 1);
    const second = idsOf(await page(50, 50));
    expect(second).toEqual(expected(50, 50));
    const skipped = ids[ids.indexOf(first[0]) - 1];
    expect(second).not.toContain(skipped);
    expect(second.at(-1)).toBe(ids[ids.indexOf(skipped) - 1]);
  });

  it('refuses limits and offsets outside the rules with 400', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=1.5', 'offset=-1', 'offset=x', 'limit=', 'limit=7&offset=1e3']) {
      const response = await call(ctx, 'GET', `${thread()}/comments/get?${query}`, { key: world.accountKey });
      if (query === 'limit=') {
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(20);
      } else {
        expect(response.status, query).toBe(400);
        expect(response.body.error.code).toBe('invalid_parameters');
      }
    }
  });
});
