import { expect } from 'vitest';
import type { TestContext } from './build-test-app.js';
import { call, type Response } from './factories.js';

/** One write route of a record or a comment, and the kinds of change it makes. */
export interface WriteRoute {
  name: string;
  run(): Promise<{ status?: number; statusCode?: number }>;
  kinds: string[];
}

const text = (content: string) => Buffer.from(content).toString('base64');

/**
 * Every write route of records, files and comments, each called once on table `tableId` (fields
 * `name` text, `amount` number, `stage` select of lead|won, `docs` file), with records `a` and
 * `b` and comment `commentId` of `a` to work on. `expectEveryWriteRoute` checks that the API has
 * no other.
 */
export function writeRoutes(ctx: TestContext, key: string, tableId: number, a: number, b: number, commentId: number): WriteRoute[] {
  const post = (url: string, body: unknown = {}): Promise<Response> => call(ctx, 'POST', url, { key, body });
  return [
    { name: 'records/create', run: () => post(`/api/table/${tableId}/records/create`, { data: { name: 'c' } }), kinds: ['record.created'] },
    { name: 'update', run: () => post(`/api/table/${tableId}/record/${a}/update`, { data: { amount: 5 } }), kinds: ['record.updated'] },
    { name: 'records/create_batch', run: () => post(`/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'x' } }, { data: { name: 'y' } }, { data: {} }] }), kinds: ['record.created', 'record.created', 'record.created'] },
    { name: 'records/update_batch', run: () => post(`/api/table/${tableId}/records/update_batch`, { records: [{ id: a, data: { amount: 6 } }, { id: b, data: { amount: 7 } }] }), kinds: ['record.updated', 'record.updated'] },
    { name: 'records/upsert_batch', run: () => post(`/api/table/${tableId}/records/upsert_batch`, { match_on: ['name'], records: [{ data: { name: 'a', stage: 'won' } }, { data: { name: 'fresh' } }] }), kinds: ['record.created', 'record.updated'] },
    { name: 'files/create', run: () => post(`/api/table/${tableId}/record/${a}/files/create`, { field_id: 'docs', name: 'n.txt', data: text('hello') }), kinds: ['record.updated'] },
    {
      name: 'files/upload',
      run: () => ctx.app.inject({ method: 'POST', url: `/api/table/${tableId}/record/${b}/files/upload?field_id=docs&name=u.txt`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' }, payload: Buffer.from('raw') }),
      kinds: ['record.updated'],
    },
    {
      name: 'files/delete',
      run: async () => {
        const path = (await call(ctx, 'GET', `/api/table/${tableId}/record/${a}/get`, { key })).body.data.docs[0].path;
        return post(`/api/table/${tableId}/record/${a}/files/delete`, { field_id: 'docs', path });
      },
      kinds: ['record.updated'],
    },
    { name: 'comments/create', run: () => post(`/api/table/${tableId}/record/${a}/comments/create`, { content: 'hello' }), kinds: ['comment.created'] },
    { name: 'comments/createEmailComment', run: () => post(`/api/table/${tableId}/record/${a}/comments/createEmailComment`, { from: { email: 'x@example.com' }, to: ['y@example.com'], subject: 'Hi', body: 'mail' }), kinds: ['comment.created'] },
    { name: 'comment/update', run: () => post(`/api/table/${tableId}/record/${a}/comment/${commentId}/update`, { content: 'edited' }), kinds: ['comment.updated'] },
    { name: 'comment/delete', run: () => post(`/api/table/${tableId}/record/${a}/comment/${commentId}/delete`), kinds: ['comment.deleted'] },
    { name: 'delete', run: () => post(`/api/table/${tableId}/record/${b}/delete`), kinds: ['record.deleted'] },
    { name: 'records/delete_batch', run: () => post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [a, 999999] }), kinds: ['record.deleted'] },
    { name: 'records/restore', run: () => post(`/api/table/${tableId}/records/restore`, { ids: [a, b, 999999] }), kinds: ['record.restored', 'record.restored'] },
  ];
}

/**
 * The routes above are every write route: the document's POST routes of records, files and
 * comments, but those that only read (or store a file for a comment to come), and
 * records/validate_batch, which checks as create_batch does and writes nothing (changes.test.ts
 * shows it appends no change).
 */
export async function expectEveryWriteRoute(ctx: TestContext, routes: readonly WriteRoute[]): Promise<void> {
  const reads = new Set(['records/query', 'records/count', 'records/ids', 'records/export', 'records/trash', 'changes/list', 'history', 'files/get', 'comments/files/get', 'comments/upload', 'records/validate_batch']);
  const document = (await call(ctx, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
  const found = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method, operation]) => method === 'post' && operation.tags?.some((tag) => ['records', 'files', 'comments'].includes(tag)))
      .map(() => path.replace(/^\/api\/table\/\{tid\}\/(record\/\{rid\}\/)?/, '').replace('comment/{cid}/', 'comment/')),
  ).filter((route) => !reads.has(route));
  expect(new Set(found)).toEqual(new Set(routes.map((route) => route.name)));
}
