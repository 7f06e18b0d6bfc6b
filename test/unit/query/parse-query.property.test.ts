import { describe, it, expect } from 'vitest';
import { fixedClock } from '../../../src/shared/clock.js';
import { ValidationError } from '../../../src/shared/errors.js';
import { parseQueryBody } from '../../../src/modules/records/query/parse-query.js';
import { resolveDateToken } from '../../../src/modules/fields/date-tokens.js';
import { createRandom } from '../../random.js';


const KEYS = ['fields', 'where', 'filters', 'order_by', 'order_dir', 'limit', 'offset', 'view_id', 'append_filters', 'search'];
const FILTER_KEYS = ['column', 'field', 'compare', 'value', 'connector'];
// Interesting leaves: operators, connectors, tokens, boundaries, prototype names.
const STRINGS = ['=', '!=', 'EQ', 'eq', 'C', 'EMPTY', 'is_not_empty', 'AND', 'or', 'Or', 'A', 'D', '', ' ', 'today',
  '-1m', 'name', '__proto__', 'constructor', 'toString', 'x'.repeat(300)];
const NUMBERS = [0, 1, -1, 1.5, 100, 1000, 1001, 1e300, -0, Number.MAX_SAFE_INTEGER + 2];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function generateValue(random: () => number, depth: number): unknown {
  const roll = random();
  if (depth <= 0 || roll < 0.45) {
    return pick(random, [null, true, false, pick(random, STRINGS), pick(random, NUMBERS), undefined]);
  }
  if (roll < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => generateValue(random, depth - 1));
  const keys = random() < 0.5 ? FILTER_KEYS : [...STRINGS, ...KEYS];
  const entries = Array.from({ length: Math.floor(random() * 5) }, () => [pick(random, keys), generateValue(random, depth - 1)]);
  return Object.fromEntries(entries);
}

function generateFilter(random: () => number): Record<string, unknown> {
  const item: Record<string, unknown> = {
    column: random() < 0.9 ? pick(random, ['a', 'b', 'c']) : pick(random, STRINGS),
    compare: random() < 0.9 ? pick(random, ['=', 'NE', 'contains', 'EMPTY', 'GTE']) : pick(random, STRINGS),
    value: generateValue(random, 1),
  };
  if (random() < 0.6) item.connector = random() < 0.9 ? pick(random, ['AND', 'OR', 'or']) : pick(random, STRINGS);
  if (random() < 0.05) delete item.value;
  return item;
}

function generateBody(random: () => number): unknown {
  if (random() < 0.05) return generateValue(random, 2);
  const body: Record<string, unknown> = {};
  for (const key of KEYS) if (random() < 0.2) body[key] = generateValue(random, 3);
  if (random() < 0.03) body[pick(random, STRINGS)] = 1;
  // Mostly well-formed filter lists reach the connector/DNF branches that random ones rarely do.
  if (random() < 0.3) body.filters = Array.from({ length: Math.floor(random() * 6) }, () => generateFilter(random));
  // Round-tripping through JSON makes bodies look like what Fastify hands over.
  return random() < 0.5 ? JSON.parse(JSON.stringify(body)) : body;
}

describe('parseQueryBody on random bodies', () => {
  it('either returns or throws a ValidationError', () => {
    const random = createRandom(20240515);
    let accepted = 0;
    let acceptedWithOr = 0;
    for (let i = 0; i < 5000; i++) {
      const body = generateBody(random);
      const mode = pick(random, ['query', 'count', 'ids'] as const);
      try {
        const parsed = parseQueryBody(body, mode);
        accepted++;
        if (parsed.where.length > 1) acceptedWithOr++;
        expect(parsed.where.every((group) => group.length > 0)).toBe(true);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw new Error(`body ${JSON.stringify(body)} threw ${String(error)}`);
        expect(error.message).toMatch(/^Invalid (parameters|filter): /);
      }
    }
    // Guards against a generator that only ever produces invalid bodies.
    expect(accepted).toBeGreaterThan(200);
    expect(acceptedWithOr).toBeGreaterThan(50);
  });
});

describe('resolveDateToken on random tokens', () => {
  it('either returns or throws a ValidationError', () => {
    const random = createRandom(7);
    const clock = fixedClock('2024-02-29T23:59:59Z');
    for (let i = 0; i < 3000; i++) {
      const digits = String(Math.floor(random() * 10 ** Math.floor(random() * 25)));
      const token = random() < 0.8 ? `${pick(random, ['+', '-'])}${digits}${pick(random, ['d', 'w', 'm', 'y'])}` : pick(random, STRINGS);
      const kind = pick(random, ['date', 'datetime', 'time'] as const);
      try {
        const resolved = resolveDateToken(token, kind, clock);
        expect(resolved).toMatch(/^(\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?|\d{2}:\d{2}:\d{2})$/);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw new Error(`token ${token} threw ${String(error)}`);
      }
    }
  });
});
