import { execFileSync } from 'node:child_process';
import { startProcess, stopProcess } from './processes.js';

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
  apiKey: string;
  tableId: number;
  targetTableId: number;
  userIds: number[];
  /** Seconds the records took through records/create_batch. */
  loadSeconds: number;
}

/** Records in each create_batch request of the load: the most the call takes. */
const loadBatch = 1000;
/** create_batch requests in flight while loading. */
const loadClients = 2;

/**
 * Everything as a new user would make it, nothing through internal calls: the account and ten
 * users through the command line (`init`, `users create`), then through the HTTP API of a
 * server started for the load (automatic indexes off, so the load's own reads build none): a
 * space with those members, a 1,000-record lookup target and the 10-field Deals table, whose
 * `rows` records go in through records/create_batch.
 */
export async function loadBenchThroughApi(options: { dataDir: string; env: Record<string, string>; rows: number; log: (line: string) => void }): Promise<BenchTable> {
  const { dataDir, env, rows, log } = options;
  const cli = (args: string[]) => JSON.parse(execFileSync(process.execPath, ['dist/main.js', ...args, '--data', dataDir, '--json'], { env: { ...process.env, ...env } }).toString());
  const owner = cli(['init', '--email', 'bench@example.com', '--name', 'Bench', '--password', 'bench-password']) as { api_key: string };
  const userIds: number[] = [];
  for (let i = 0; i < 10; i += 1) userIds.push((cli(['users', 'create', '--email', `member${i}@example.com`, '--name', `Member ${i}`, '--password', 'member-password']) as { id: number }).id);
  const server = await startProcess(process.execPath, ['dist/main.js', 'serve', '--port', '0', '--data', dataDir], { ...env, TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', TABULA_AUTO_INDEXES: 'off', LOG_LEVEL: 'error' });
  try {
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${owner.api_key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<any>;
    };
    const space = await api('/api/spaces/create', { name: 'Bench' });
    for (const userId of userIds) await api(`/api/space/${space.id}/members/add`, { user_id: userId, role: 'editor' });
    const target = await api(`/api/space/${space.id}/tables/create`, { name: 'Companies', fields: [{ name: 'Name', type: 'text' }] });
    const random = createRandom(7);
    await api(`/api/table/${target.id}/records/create_batch`, { records: Array.from({ length: 1000 }, () => ({ data: { name: makeWords(random, 2).join(' ') } })) });
    const table = await api(`/api/space/${space.id}/tables/create`, {
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
    const records = generateRecords(rows, userIds);
    const started = performance.now();
    let loaded = 0;
    let reported = 0;
    const client = async () => {
      for (;;) {
        const batch: Array<{ data: unknown }> = [];
        for (let next = records.next(); !next.done; next = records.next()) {
          batch.push({ data: next.value });
          if (batch.length === loadBatch) break;
        }
        if (batch.length === 0) return;
        await api(`/api/table/${table.id}/records/create_batch`, { records: batch });
        loaded += batch.length;
        if (loaded - reported >= rows / 20 || loaded === rows) {
          reported = loaded;
          log(`  loaded ${loaded.toLocaleString('en')} / ${rows.toLocaleString('en')} records through create_batch (${Math.round(loaded / ((performance.now() - started) / 1000))} records/s)`);
        }
      }
    };
    await Promise.all(Array.from({ length: loadClients }, client));
    return { apiKey: owner.api_key, tableId: table.id, targetTableId: target.id, userIds, loadSeconds: (performance.now() - started) / 1000 };
  } finally {
    await stopProcess(server.child);
  }
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
