import type { Container } from '../src/container.js';
import type { Actor } from '../src/modules/auth/actor.js';

/** A small deterministic PRNG (mulberry32), so every run loads the same data. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (max: number) => Math.floor(next() * max), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] };
}

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'za', 'pe', 'qu', 'dor', 'bel', 'fin', 'gar', 'hul', 'jex', 'wyn'];
export const stages = ['lead', 'qualified', 'proposal', 'won', 'lost'];
const tags = ['red', 'green', 'blue', 'urgent', 'later', 'vip'];

export function makeWords(random: ReturnType<typeof createRandom>, count: number): string[] {
  return Array.from({ length: count }, () => Array.from({ length: 2 + random.int(2) }, () => random.pick(syllables)).join(''));
}

export interface BenchTable {
  actor: Actor;
  apiKey: string;
  tableId: number;
  targetTableId: number;
  userIds: number[];
}

/** Account, ten members, a 1,000-row lookup target and the 10-field table the shapes query. */
export async function createBenchTables(container: Container): Promise<BenchTable> {
  const { services } = container;
  const account = await services.accounts.createAccount({ email: 'bench@example.com', name: 'Bench', password: 'bench-password' });
  const actor = await services.keys.authenticateKey(account.api_key, '127.0.0.1');
  const space = await services.spaces.createSpace(actor, { name: 'Bench' });
  const userIds: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const user = await services.users.createUser(account.account_id, { email: `member${i}@example.com`, name: `Member ${i}`, password: 'member-password' });
    await services.spaces.addMember(actor, space.id, { user_id: user.id, role: 'editor' });
    userIds.push(user.id);
  }
  const target = await services.tables.createTable(actor, space.id, { name: 'Companies', fields: [{ name: 'Name', type: 'text' }] });
  const random = createRandom(7);
  await services.records.importRecords(actor, target.id, Array.from({ length: 1000 }, () => ({ name: makeWords(random, 2).join(' ') })));
  const table = await services.tables.createTable(actor, space.id, {
    name: 'Deals',
    fields: [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'notes', name: 'Notes', type: 'longtext' },
      { id: 'amount', name: 'Amount', type: 'number', decimals: 2 },
      { id: 'stage', name: 'Stage', type: 'select', options: stages.map((value) => ({ value })) },
      { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: tags.map((value) => ({ value })) },
      { id: 'owner', name: 'Owner', type: 'user' },
      { id: 'due', name: 'Due', type: 'date' },
      { id: 'closed_at', name: 'Closed at', type: 'datetime' },
      { id: 'won', name: 'Won', type: 'checkbox' },
      { id: 'company', name: 'Company', type: 'lookup', table_id: target.id },
    ],
  });
  return { actor, apiKey: account.api_key, tableId: table.id, targetTableId: target.id, userIds };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** One row of deterministic data in the API's write format. */
export function makeRecord(random: ReturnType<typeof createRandom>, userIds: readonly number[]) {
  const year = 2020 + random.int(6);
  const date = `${year}-${pad(1 + random.int(12))}-${pad(1 + random.int(28))}`;
  return {
    name: makeWords(random, 3).join(' '),
    notes: makeWords(random, 12).join(' '),
    amount: Math.round(random.next() * 10_000_000) / 100,
    stage: random.pick(stages),
    tags: tags.filter(() => random.next() < 0.3),
    owner: random.pick(userIds),
    due: date,
    closed_at: `${date} ${pad(random.int(24))}:${pad(random.int(60))}:${pad(random.int(60))}`,
    won: random.next() < 0.5,
    company: 1 + random.int(1000),
  };
}

export function* generateRecords(count: number, userIds: readonly number[], seed = 42) {
  const random = createRandom(seed);
  for (let i = 0; i < count; i += 1) yield makeRecord(random, userIds);
}
