import { describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createKey, createSpace, createTable, login, type Response } from '../factories.js';

/**
 * Ids are 32-bit `integer` columns on PostgreSQL: an id no row can have (past the range, or
 * negative) must answer exactly as a missing object does, on every route and in bodies, never 500.
 */
const ctx = useTestApp();

/** 2^31 (just past PostgreSQL's `integer`), 2^53, 2^64 (past a double's integers) and -1. */
const impossibleIds = ['2147483648', '9007199254740992', '18446744073709551616', '-1'];
const missingId = '999999';

type Operation = { requestBody?: unknown; parameters?: Array<{ in: string; name: string; schema: { type?: string } }> };

interface Caller {
  key?: string;
  cookie?: string;
}

/** The same call with every answer's varying parts (request ids) left out. */
function comparable(response: Response) {
  const body = structuredClone(response.body);
  if (body?.error) delete body.error.request_id;
  return { status: response.status, body };
}

describe('ids no row can have answer as missing ones', () => {
  async function world() {
    const owner = await createAccount(ctx);
    const space = await createSpace(ctx, owner);
    const target = await createTable(ctx, owner, space.id, { name: 'Target', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
    const table = await createTable(ctx, owner, space.id, {
      name: 'Things',
      fields: [
        { id: 'label', name: 'Label', type: 'text' },
        { id: 'link', name: 'Link', type: 'lookup', table_id: target.id, multiple: true },
        { id: 'files', name: 'Files', type: 'file', multiple: true },
      ],
    });
    const record = (await call(ctx, 'POST', `/api/table/${table.id}/records/create`, { key: owner.accountKey, body: { data: { label: 'one' } } })).body;
    const cookie = await login(ctx, owner.ownerEmail, owner.ownerPassword);
    const view = (await call(ctx, 'POST', `/api/table/${table.id}/views/create`, { cookie, body: { name: 'Grid', type: 'grid' } })).body;
    const comment = (await call(ctx, 'POST', `/api/table/${table.id}/record/${record.id}/comments/create`, { key: owner.accountKey, body: { content: 'hello' } })).body;
    const personalKey = (await createKey(ctx, { userId: owner.ownerId })).key;
    return { owner, space, table, record, view, comment, personalKey, cookie };
  }

  it('in every path id of every route of the OpenAPI document, on both engines', async () => {
    const w = await world();
    const valid: Record<string, string> = { sid: String(w.space.id), tid: String(w.table.id), rid: String(w.record.id), vid: String(w.view.id), cid: String(w.comment.id), id: missingId, slug: 'label', name: 'idx_none' };
    /** Bodies a route would accept, so that what answers is the id, not the body's validation. */
    const bodies: Record<string, unknown> = {
      'POST /api/space/{sid}/update': { name: 'Renamed' },
      'POST /api/space/{sid}/members/add': { user_id: w.owner.ownerId, role: 'editor' },
      'POST /api/space/{sid}/members/remove': { user_id: w.owner.ownerId },
      'POST /api/space/{sid}/tables/create': { name: 'Another', fields: [] },
      'POST /api/table/{tid}/update': { name: 'Renamed' },
      'POST /api/table/{tid}/indexes/create': { fields: ['label'] },
      'POST /api/table/{tid}/fields/create': { id: 'extra', name: 'Extra', type: 'text' },
      'POST /api/table/{tid}/field/{slug}/update': { name: 'Label' },
      'POST /api/table/{tid}/records/create': { data: {} },
      'POST /api/table/{tid}/record/{rid}/update': { data: {} },
      'POST /api/table/{tid}/records/create_batch': { records: [{ data: {} }] },
      'POST /api/table/{tid}/records/validate_batch': { records: [{ data: {} }] },
      'POST /api/table/{tid}/records/update_batch': { records: [{ id: w.record.id, data: {} }] },
      'POST /api/table/{tid}/records/upsert_batch': { match_on: ['label'], records: [{ data: { label: 'one' } }] },
      'POST /api/table/{tid}/records/delete_batch': { record_ids: [w.record.id] },
      'POST /api/table/{tid}/record/{rid}/files/create': { field_id: 'files', files: [] },
      'POST /api/table/{tid}/record/{rid}/files/delete': { field_id: 'files', path: '/none' },
      'POST /api/table/{tid}/record/{rid}/files/get': { field_id: 'files', path: '/none' },
      'POST /api/table/{tid}/views/create': { name: 'Another', type: 'grid' },
      'POST /api/table/{tid}/view/{vid}/update': { name: 'Renamed' },
      'POST /api/table/{tid}/record/{rid}/comments/create': { content: 'hi' },
      'POST /api/table/{tid}/record/{rid}/comments/files/get': { comment_id: w.comment.id, path: '/none' },
      'POST /api/table/{tid}/record/{rid}/comment/{cid}/update': { content: 'edited' },
    };
    const queries: Record<string, string> = {
      'POST /api/table/{tid}/record/{rid}/files/upload': '?field_id=files&name=a.txt',
      'GET /api/table/{tid}/record/{rid}/files/download': '?field_id=files&path=%2Fnone',
      'GET /api/table/{tid}/record/{rid}/files/thumbnail': '?field_id=files&path=%2Fnone&size=256',
    };
    const callers: Caller[] = [{ key: w.owner.accountKey }, { key: w.personalKey }, { cookie: w.cookie }];

    const document = (await call(ctx, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    let swept = 0;
    for (const [template, pathItem] of Object.entries(document.paths)) {
      for (const [lowerMethod, operation] of Object.entries(pathItem)) {
        const method = lowerMethod.toUpperCase() as 'GET' | 'POST';
        const route = `${method} ${template}`;
        const ids = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path' && parameter.schema.type === 'integer').map((parameter) => parameter.name);
        const octets = Boolean((operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content?.['application/octet-stream']);
        const send = (caller: Caller, values: Record<string, string>) => {
          const url = template.replace(/\{(\w+)\}/g, (_, name: string) => values[name]) + (queries[route] ?? '');
          if (octets) return call(ctx, method, url, { ...caller, payload: 'x', headers: { 'content-type': 'application/octet-stream' } });
          return call(ctx, method, url, { ...caller, body: method === 'POST' ? (bodies[route] ?? {}) : undefined });
        };
        for (const swept_ of ids) {
          const withId = (id: string) => ({ ...valid, [swept_]: id });
          // The credential the route is for: the first one not refused as such (a session for the session-only routes, a personal key for notifications).
          let caller = callers[0];
          let missing = await send(caller, withId(missingId));
          for (const other of callers.slice(1)) {
            if (missing.status !== 401 && missing.status !== 403 && missing.status !== 415) break;
            caller = other;
            missing = await send(caller, withId(missingId));
          }
          for (const id of impossibleIds) {
            const answer = await send(caller, withId(id));
            const where = `${route} with ${swept_} = ${id}`;
            expect(answer.body?.error?.code, where).not.toBe('internal_error');
            expect(comparable(answer), where).toEqual(comparable(missing));
          }
          swept += 1;
        }
      }
    }
    expect(swept).toBeGreaterThan(50);
  }, 120_000);

  it('in bodies: record ids of delete_batch and update_batch, lookups, view_id, record_id, user_id and comment_id', async () => {
    const w = await world();
    const t = `/api/table/${w.table.id}`;
    const key = w.owner.accountKey;
    const cases: Array<{ path: string; key?: string; body: (id: number) => unknown }> = [
      { path: `${t}/records/delete_batch`, body: (id) => ({ record_ids: [id] }) },
      { path: `${t}/records/update_batch`, body: (id) => ({ records: [{ id, data: {} }] }) },
      { path: `${t}/records/create`, body: (id) => ({ data: { link: [id] } }) },
      { path: `${t}/records/create`, body: (id) => ({ data: { link: [{ id, title: 'x' }] } }) },
      { path: `${t}/record/${w.record.id}/update`, body: (id) => ({ data: { link: [id] } }) },
      { path: `${t}/records/create_batch`, body: (id) => ({ records: [{ data: { link: [id] } }] }) },
      { path: `${t}/records/query`, body: (id) => ({ filters: [{ column: 'link', compare: '=', value: id }] }) },
      { path: `${t}/records/query`, body: (id) => ({ filters: [{ column: 'link', compare: '!=', value: id }] }) },
      { path: `${t}/records/count`, body: (id) => ({ filters: [{ column: 'id', compare: '=', value: id }] }) },
      { path: `/api/subscriptions/${w.table.id}/status`, key: w.personalKey, body: (id) => ({ record_id: id }) },
      { path: `/api/space/${w.space.id}/members/add`, body: (id) => ({ user_id: id, role: 'editor' }) },
      { path: `/api/space/${w.space.id}/members/remove`, body: (id) => ({ user_id: id }) },
      { path: `${t}/record/${w.record.id}/comments/files/get`, body: (id) => ({ comment_id: id, path: '/none' }) },
      { path: `/api/space/${w.space.id}/tables/create`, body: (id) => ({ name: 'Linked', fields: [{ id: 'l', name: 'L', type: 'lookup', table_id: id }] }) },
    ];
    // view_id 0 is "no view" and a negative one invalid: only ids past the range are views that cannot exist.
    const viewCases = [`${t}/records/query`, `${t}/records/count`, `${t}/records/ids`].map((path) => ({ path, body: (id: number) => ({ view_id: id }), ids: impossibleIds.filter((id) => !id.startsWith('-')) }));
    for (const { path, body, ...rest } of [...cases.map((c) => ({ ...c, ids: impossibleIds })), ...viewCases]) {
      const as = { key: 'key' in rest && rest.key ? rest.key : key };
      const missing = comparable(await call(ctx, 'POST', path, { ...as, body: body(Number(missingId)) }));
      for (const id of rest.ids.map(Number)) {
        const answer = comparable(await call(ctx, 'POST', path, { ...as, body: body(id) }));
        const where = `${path} ${JSON.stringify(body(id))}`;
        expect(answer.body?.error?.code, where).not.toBe('internal_error');
        // The answer names the id it was given where a missing one's names 999999.
        const named = new RegExp(`(?<![\\w.])${String(id)}(?![\\d.])`, 'g');
        expect(JSON.parse(JSON.stringify(answer).replace(named, missingId)), where).toEqual(missing);
      }
    }
  }, 120_000);
});
