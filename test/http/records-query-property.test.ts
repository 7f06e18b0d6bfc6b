import { beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/shared/clock.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World, everyFieldType } from '../factories.js';
import { createRandom } from '../random.js';


type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const chance = (random: Random, p: number) => random() < p;

const FIELD_SLUGS = ['name', 'notes', 'mail', 'site', 'amount', 'done', 'status', 'tags', 'owner', 'team', 'ref', 'refs', 'day', 'moment', 'clock', 'doc'];
const SYSTEM_SLUGS = ['id', 'created_at', 'updated_at', 'title'];
const ODD_SLUGS = ['nope', '', ' ', 'NAME', 'f_1', 'name; drop table users', '"name"', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '_search', 'rec_1'];
const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'EQ', 'NE', 'NEQ', 'GT', 'GTE', 'LT', 'LTE', 'C', 'CONTAINS', 'contains', 'SW', 'STARTS_WITH', 'starts_with',
  'EW', 'ENDS_WITH', 'ends_with', 'EMPTY', 'IS_EMPTY', 'is_empty', 'NEMPTY', 'IS_NOT_EMPTY', 'is_not_empty'];
const ODD_OPERATORS = ['eq', 'Contains', 'LIKE', '==', '<>', '', 'IN', 'between', 'NOT', '=;', 'valueOf'];
const TOKENS = ['today', 'now', 'yesterday', 'start_of_week', 'start_of_month', 'start_of_year', 'start_of_last_week', 'start_of_last_month',
  'start_of_last_year', '-1d', '+1d', '-2w', '+3w', '-1m', '+13m', '-1y', '+10y', '-99999999999y', '+9999999999999999999999d', '1d', 'tomorrow', '-1q', '+0d', '-0m'];
const STRINGS = ['Alpha', 'alpha', 'ALPHA', 'Äpfel', 'ärg', 'red', 'blue', 'Open', 'Closed', 'x', '', ' ', '%', '_', '\\', "'", '"', '%_\\', '\u0000', 'a\u0000b',
  '\ud800', '😀', 'ß', 'İ', '@me', 'owner@example.com', '1', '2', '-1', '1.5', '1e400', '99999999999999999999', '0x10', ' 7 ', 'true', 'false', 'null',
  '2024-02-29', '2024-02-30', '2024-03-31 15:30:00', '24:00:00', '08:00:00', '0000-01-01', '9999-12-31 23:59:59', 'x'.repeat(5000),
  "'; drop table users; --", '*', 'NEAR', 'AND', 'OR', 'a OR b', '"a" "b"', '^a', 'a*', '(', ')', '\ud83d\ude00'];
/** Picked less often, since any one of them decides the answer: NUL and unpaired surrogates (refused by the body parser), patterns around the 1,000-character cap and past SQLite's 50,000-byte LIKE limit. */
const HOSTILE_STRINGS = ['\udc00', 'a\ud800b', 'red\u0000', '%'.repeat(1000), '%'.repeat(1001), '😀'.repeat(1001), 'Alpha'.repeat(10_000), '_'.repeat(60_000), 'é'.repeat(50_000)];
const NUMBERS = [0, 1, 2, 3, -1, 1.5, -0.25, 10, 100, 1000, 1001, 2147483647, 2147483648, -2147483649, 1e20, 1e300, -1e300, Number.MAX_SAFE_INTEGER, 5e-324];

function scalar(random: Random): unknown {
  const roll = random();
  if (roll < 0.02) return pick(random, HOSTILE_STRINGS);
  if (roll < 0.35) return pick(random, STRINGS);
  if (roll < 0.55) return pick(random, NUMBERS);
  if (roll < 0.7) return pick(random, TOKENS);
  if (roll < 0.8) return pick(random, [true, false, null]);
  if (roll < 0.9) return pick(random, [...FIELD_SLUGS, ...OPERATORS]);
  return random() * 10 ** Math.floor(random() * 12) * (chance(random, 0.3) ? -1 : 1);
}

/**
 * Stands for JSON nested `levels` deep (arrays or objects), spliced into the body text by
 * `bodyText`: building such values as objects would overflow JSON.stringify itself.
 */
const deepMarker = (levels: number, kind: 'a' | 'o') => `@@deep:${levels}:${kind}@@`;
const DEPTHS = [10, 58, 59, 60, 61, 62, 63, 64, 100, 4000, 100_000];

function nestedText(levels: number, kind: string): string {
  return kind === 'a' ? `${'['.repeat(levels)}"red"${']'.repeat(levels)}` : `${'{"id":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** The body as sent: JSON text with every deep marker replaced by its nesting. */
function bodyText(body: unknown): string {
  return (JSON.stringify(body) ?? 'null').replace(/"@@deep:(\d+):([ao])@@"/g, (_marker, levels: string, kind: string) => nestedText(Number(levels), kind));
}

/** Rare hostile values: deep nesting, and arrays of thousands of items. */
function hostileValue(random: Random): unknown {
  if (chance(random, 0.6)) return deepMarker(pick(random, DEPTHS), chance(random, 0.5) ? 'a' : 'o');
  return Array.from({ length: pick(random, [1001, 5000, 20_000]) }, () => pick(random, ['red', 1, null, '\u0000', 'x']));
}

/** Any JSON value, nested a little: arrays and objects of scalars, user/lookup shaped objects included. */
function jsonValue(random: Random, depth = 2): unknown {
  const roll = random();
  if (chance(random, 0.01)) return hostileValue(random);
  if (depth === 0 || roll < 0.65) return scalar(random);
  if (roll < 0.8) return Array.from({ length: Math.floor(random() * 4) }, () => jsonValue(random, depth - 1));
  if (roll < 0.9) return pick(random, [{ id: jsonValue(random, 0) }, { email: jsonValue(random, 0) }, { id: 1, title: 'x' }, {}]);
  return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, () => [pick(random, [...FIELD_SLUGS, ...ODD_SLUGS]), jsonValue(random, depth - 1)]));
}

const slug = (random: Random) => (chance(random, 0.75) ? pick(random, FIELD_SLUGS) : chance(random, 0.5) ? pick(random, SYSTEM_SLUGS) : pick(random, ODD_SLUGS));
const operator = (random: Random) => (chance(random, 0.9) ? pick(random, OPERATORS) : chance(random, 0.7) ? pick(random, ODD_OPERATORS) : jsonValue(random, 1));

function filterItem(random: Random): unknown {
  if (chance(random, 0.03)) return jsonValue(random);
  const item: Record<string, unknown> = {};
  if (chance(random, 0.97)) item[chance(random, 0.8) ? 'column' : 'field'] = chance(random, 0.97) ? slug(random) : jsonValue(random, 0);
  if (chance(random, 0.97)) item.compare = operator(random);
  if (chance(random, 0.9)) item.value = chance(random, 0.03) ? pick(random, HOSTILE_STRINGS) : jsonValue(random);
  if (chance(random, 0.6)) item.connector = chance(random, 0.9) ? pick(random, ['AND', 'OR', 'and', 'or']) : jsonValue(random, 0);
  if (chance(random, 0.02)) item[pick(random, ODD_SLUGS)] = 1;
  return item;
}

function whereObject(random: Random): unknown {
  if (chance(random, 0.05)) return jsonValue(random);
  const entries = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const roll = random();
    const spec = roll < 0.4 ? jsonValue(random) : roll < 0.9 ? [operator(random), jsonValue(random)] : chance(random, 0.5) ? [operator(random)] : [operator(random), 1, 2];
    return [slug(random), spec];
  });
  return Object.fromEntries(entries);
}

function queryBody(random: Random): unknown {
  if (chance(random, 0.03)) return jsonValue(random);
  const body: Record<string, unknown> = {};
  if (chance(random, 0.5)) body.where = whereObject(random);
  if (chance(random, 0.6)) body.filters = chance(random, 0.95) ? Array.from({ length: Math.floor(random() * 6) }, () => filterItem(random)) : jsonValue(random);
  if (chance(random, 0.3)) body.search = chance(random, 0.8) ? Array.from({ length: 1 + Math.floor(random() * 3) }, () => String(pick(random, STRINGS))).join(' ') : jsonValue(random, 0);
  if (chance(random, 0.3)) body.order_by = chance(random, 0.8) ? slug(random) : jsonValue(random, 0);
  if (chance(random, 0.3)) body.order_dir = chance(random, 0.8) ? pick(random, ['A', 'D']) : jsonValue(random, 0);
  if (chance(random, 0.3)) body.limit = chance(random, 0.6) ? pick(random, [1, 2, 5, 100, 1000]) : jsonValue(random, 0);
  if (chance(random, 0.3)) body.offset = chance(random, 0.6) ? pick(random, [0, 1, 3, 50]) : jsonValue(random, 0);
  if (chance(random, 0.2)) body.fields = chance(random, 0.8) ? Array.from({ length: Math.floor(random() * 4) }, () => slug(random)) : jsonValue(random, 1);
  if (chance(random, 0.05)) body.view_id = pick(random, [0, -1, 'x', 1.5, null]); // an unknown view id is a 500 by the seed
  if (chance(random, 0.05)) body.append_filters = jsonValue(random, 0);
  if (chance(random, 0.03)) body[pick(random, ODD_SLUGS)] = jsonValue(random, 0);
  return body;
}

/** What is wrong with one answer, or null: 200 with the endpoint's shape, or 400 (413 past 1 MiB) with an error body. */
function checkAnswer(endpoint: 'query' | 'count' | 'ids', response: { status: number; body: any }): string | null {
  if (response.status === 413) return response.body?.error?.code === 'payload_too_large' ? null : 'bad 413 body';
  if (response.status === 400) {
    const error = response.body?.error;
    if (typeof error?.code !== 'string' || !/^[a-z_]+$/.test(error.code)) return 'bad error code';
    if (typeof error.message !== 'string' || !/^Invalid /.test(error.message)) return 'bad error message';
    return Object.keys(response.body).length === 1 ? null : 'extra keys in the error body';
  }
  if (response.status !== 200) return `status ${response.status}`;
  if (endpoint === 'count') {
    const { count, total, total_approx: approx, restricted } = response.body ?? {};
    return Number.isInteger(count) && total === 4 && approx === false && typeof restricted === 'boolean' && count <= total ? null : 'bad count result';
  }
  if (!Array.isArray(response.body)) return 'not an array';
  if (endpoint === 'ids') return response.body.every((id: unknown) => Number.isInteger(id)) ? null : 'ids not integers';
  return response.body.every((record: { id?: unknown; data?: unknown }) => Number.isInteger(record.id) && typeof record.data === 'object') ? null : 'bad records';
}

describe('records query on random bodies (property)'
, () => {
  const ctx = useTestApp({ clock: fixedClock('2024-03-31T15:30:00Z') });
  let world: World;
  let tableId: number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Property');
    const target = await createTable(ctx, world, space.id, { name: 'Targets', fields: [{ name: 'Label', type: 'text' }] });
    const targetIds: number[] = [];
    for (const label of ['one', 'two']) {
      const created = await call(ctx, 'POST', `/api/table/${target.id}/records/create`, { key: world.accountKey, body: { data: { label } } });
      targetIds.push(created.body.id);
    }
    const table = await createTable(ctx, world, space.id, {
      name: 'Everything',
      fields: everyFieldType(target.id),
    });
    tableId = table.id;
    const rows = [
      { name: 'Alpha', notes: '100% _sure_', mail: 'a@example.com', site: 'https://a.example.com', amount: 10, done: true, status: 'Open', tags: ['red', 'blue'],
        owner: world.ownerId, team: [world.ownerId], ref: targetIds[0], refs: targetIds, day: '2024-02-29', moment: '2024-03-31 15:30:00', clock: '15:30:00' },
      { name: 'Äpfel', notes: "it's \"quoted\"", amount: -1.5, done: false, status: 'Closed', tags: ['green'], day: '2023-12-31', moment: '2024-01-01 00:00:00', clock: '00:00:00' },
      { name: 'zebra', amount: 2147483647 },
      {},
    ];
    for (const data of rows) {
      const created = await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data } });
      expect(created.status).toBe(200);
    }
  });

  // CI runs 20,000 bodies per engine (about 30 s); PROPERTY_RUNS changes it, PROPERTY_SEED replays a failure.
  it('answers 20,000 random query, count and ids bodies with 200 or a 4xx error body, never a 5xx', async () => {
    const seed = Number(process.env.PROPERTY_SEED ?? 20240331);
    const runs = Number(process.env.PROPERTY_RUNS ?? 20_000);
    const random = createRandom(seed);
    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    const refusals: Record<string, number> = {};
    const ask = async (index: number, endpoint: 'query' | 'count' | 'ids', payload: string) => {
      // A response broken off mid-stream (an SQL error after a 200 began) is a failure too.
      const response = await call(ctx, 'POST', `/api/table/${tableId}/records/${endpoint}`, { key: world.accountKey, payload, headers: { 'content-type': 'application/json' } }).catch(
        (error: Error) => ({ status: 0, body: error.message }),
      );
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      const refusal = /nested deeper|must not contain|must be at most/.exec(response.body?.error?.message ?? '')?.[0];
      if (refusal) refusals[refusal] = (refusals[refusal] ?? 0) + 1;
      const problem = checkAnswer(endpoint, response);
      if (problem) failures.push(`${problem}: seed ${seed} #${index} ${endpoint} ${payload.slice(0, 400)} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    };
    // A few requests in flight at once, so PostgreSQL's round trips overlap; the bodies are drawn in order, so a seed replays.
    for (let start = 0; start < runs; start += 8) {
      const batch: Promise<void>[] = [];
      for (let index = start; index < Math.min(start + 8, runs); index += 1) {
        const payload = bodyText(queryBody(random));
        batch.push(ask(index, pick(random, ['query', 'query', 'count', 'ids'] as const), payload));
      }
      await Promise.all(batch);
    }
    expect(failures).toEqual([]);
    // Guards against a generator that only ever produces rejected bodies (or only accepted ones),
    // or that lost its hostile values.
    expect(statuses[200]).toBeGreaterThan(runs / 10);
    expect(statuses[400]).toBeGreaterThan(runs / 6);
    if (runs >= 10_000) for (const refusal of ['nested deeper', 'must not contain', 'must be at most']) expect(refusals[refusal], refusal).toBeGreaterThan(runs / 4000);
  }, 300_000);
});
