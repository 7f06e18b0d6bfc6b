import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

/**
 * Datetimes written in ISO 8601 (`2024-01-01T10:00:00Z`) are stored as the service's own
 * `YYYY-MM-DD HH:MM:SS`; another offset is refused, never converted. Filters take the same forms.
 */
describe('ISO 8601 datetimes on writes and in filters', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Calendar');
    tableId = (await createTable(ctx, world, space.id, { name: 'Meetings', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'start', name: 'Start', type: 'datetime' }, { id: 'day', name: 'Day', type: 'date' }] })).id;
  });

  const post = (url: string, body: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const create = (data: Record<string, unknown>) => post(`/api/table/${tableId}/records/create`, { data });
  const update = (id: number, data: Record<string, unknown>) => post(`/api/table/${tableId}/record/${id}/update`, { data });
  const count = async () => (await post(`/api/table/${tableId}/records/count`, {})).body.count as number;

  it.each([
    ['2024-01-01T10:00:00Z', '2024-01-01 10:00:00'],
    ['2024-01-01T10:00:00', '2024-01-01 10:00:00'],
    ['2024-01-01T10:00:00+00:00', '2024-01-01 10:00:00'],
    ['2024-01-01T10:00:00.000Z', '2024-01-01 10:00:00'],
    ['2024-01-01 10:00:00', '2024-01-01 10:00:00'],
  ])('create and update store %j as %j, and reads give it back that way', async (written, stored) => {
    const created = await create({ start: written });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.start).toBe(stored);
    const fetched = await call(ctx, 'GET', `/api/table/${tableId}/record/${created.body.id}/get`, { key: world.accountKey });
    expect(fetched.body.data.start).toBe(stored);

    const other = await create({ start: '2000-01-01 00:00:00' });
    const updated = await update(other.body.id, { start: written });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.start).toBe(stored);
  });

  it.each([
    ['2024-01-01T10:00:00+02:00', 'Invalid value for field start: "2024-01-01T10:00:00+02:00" (offsets other than Z and +00:00 are refused; values are never converted)'],
    ['2024-01-01T10:00:00-05:30', 'Invalid value for field start: "2024-01-01T10:00:00-05:30" (offsets other than Z and +00:00 are refused; values are never converted)'],
    ['2024-01-01T10:00:00.250Z', 'Invalid value for field start: "2024-01-01T10:00:00.250Z" (fractions of a second are refused; values are stored to the second and never rounded)'],
    ['2024-02-30T10:00:00Z', 'Invalid value for field start: expected YYYY-MM-DD HH:MM:SS, got "2024-02-30T10:00:00Z"'],
  ])('refuses %j with 400 on create and update, changing nothing', async (written, message) => {
    const before = await count();
    expect(await create({ start: written })).toMatchObject({ status: 400, body: { error: { code: 'invalid_field_value', message } } });
    expect(await count()).toBe(before);

    const kept = await create({ start: '2000-01-01 00:00:00' });
    expect(await update(kept.body.id, { start: written })).toMatchObject({ status: 400, body: { error: { code: 'invalid_field_value', message } } });
    const fetched = await call(ctx, 'GET', `/api/table/${tableId}/record/${kept.body.id}/get`, { key: world.accountKey });
    expect(fetched.body.data.start).toBe('2000-01-01 00:00:00');
  });

  it('a date field keeps its own format: an ISO datetime is refused there', async () => {
    expect(await create({ day: '2024-01-01T00:00:00Z' })).toMatchObject({ status: 400, body: { error: { code: 'invalid_field_value', message: 'Invalid value for field day: expected YYYY-MM-DD, got "2024-01-01T00:00:00Z"' } } });
  });

  describe('filters', () => {
    let filterTableId: number;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      const space = await createSpace(ctx, world, 'Filters');
      filterTableId = (await createTable(ctx, world, space.id, { name: 'Events', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'start', name: 'Start', type: 'datetime' }] })).id;
      for (const [name, start] of [
        ['early', '2024-01-01 09:59:59'],
        ['exact', '2024-01-01 10:00:00'],
        ['late', '2024-01-01 10:00:01'],
      ]) {
        const created = await post(`/api/table/${filterTableId}/records/create`, { data: { name, start } });
        ids[name] = created.body.id;
      }
    });

    const query = (body: Record<string, unknown>) => post(`/api/table/${filterTableId}/records/query`, body);
    const names = async (body: Record<string, unknown>) => {
      const response = await query(body);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.map((record: { data: { name: string } }) => record.data.name);
    };

    it.each(['2024-01-01T10:00:00Z', '2024-01-01T10:00:00', '2024-01-01T10:00:00+00:00', '2024-01-01T10:00:00.000Z'])('where and filters take %j like 2024-01-01 10:00:00', async (value) => {
      expect(await names({ where: { start: value } })).toEqual(['exact']);
      expect(await names({ where: { start: ['>=', value] } })).toEqual(['exact', 'late']);
      expect(await names({ filters: [{ column: 'start', compare: '<', value }] })).toEqual(['early']);
    });

    it('created_at and updated_at take the ISO forms too', async () => {
      expect(await names({ where: { created_at: ['>', '2000-01-01T00:00:00Z'] } })).toEqual(['early', 'exact', 'late']);
    });

    it('refuses another offset or a fraction of a second in a filter with 400 invalid_filter', async () => {
      expect(await query({ where: { start: '2024-01-01T12:00:00+02:00' } })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_filter', message: 'Invalid filter: start: "2024-01-01T12:00:00+02:00" (offsets other than Z and +00:00 are refused; values are never converted)' } },
      });
      expect(await query({ filters: [{ column: 'start', compare: '>', value: '2024-01-01T10:00:00.5Z' }] })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_filter', message: 'Invalid filter: start: "2024-01-01T10:00:00.5Z" (fractions of a second are refused; values are stored to the second and never rounded)' } },
      });
    });
  });
});
