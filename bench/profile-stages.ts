/**
 * A V8 CPU profile (`node --cpu-prof`) cut into the stages of a records call (issue 32): each
 * sample goes to the innermost frame of its stack that a rule below names, so time inside
 * JSON.stringify counts as serialisation wherever it was called from, and a frame of Tabula's
 * own code holds the native and library time beneath it that no rule claims. Idle samples are
 * left out: the shares are of the time the process was busy.
 */
interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** [stage, test of a frame]: the first that matches names the frame's stage. */
const rules: Array<[string, (frame: CallFrame) => boolean]> = [
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['V8 and native, unattributed', (f) => f.functionName === '(program)'],
  ['serialisation', (f) => f.functionName === 'stringify' || f.url.includes('fast-json-stringify') || /reply\.js$/.test(f.url) && f.functionName === 'serialize'],
  // The native statement runs beneath the direct reader's and Kysely's SQLite driver frames (an addon's functions have no frame of their own).
  ['query (driver and database)', (f) => f.url.includes('better-sqlite3') || /db\/sqlite-database|db\/postgres-|sqlite\/sqlite-driver|postgres\/postgres-driver/.test(f.url) || /\/node_modules\/pg(-protocol|-pool)?\//.test(f.url) || (f.url === '' && ['all', 'get', 'run', 'iterate', 'raw', 'exec'].includes(f.functionName))],
  ['query building (Kysely)', (f) => f.url.includes('/kysely/')],
  ['read-worker hop', (f) => /sqlite-read-worker|bounded-read|query-gate/.test(f.url)],
  ['metadata-version confirmation', (f) => f.url.includes('metadata-cache')],
  ['rate limiting', (f) => f.url.includes('rate-limit')],
  ['authentication (key look-up, hashing)', (f) => /auth\.plugin|keys\.service|keys\.repository|key-expiry|ip-allow-list|\/auth\/actor|sessions\.repository/.test(f.url) || (f.url.startsWith('node:internal/crypto') && /hash|digest|update|timingSafeEqual/i.test(f.functionName))],
  ['access resolution', (f) => /record-table|record-attempts|table-schema-cache|write-access-hook|owner-authority/.test(f.url)],
  ['value decoding', (f) => /record-reader|\/modules\/fields\//.test(f.url)],
  ['user/lookup resolution', (f) => /record-context|record-reads|users\.service/.test(f.url)],
  ['body parsing and validation', (f) => /json-body|request-body|secure-json-parse|validator|\/ajv\//.test(f.url) || (f.url === '' && f.functionName === 'parse')],
  ['record writes and change log', (f) => /record-writes|record-writer|record-changes|\/modules\/changes\/|search-text|records\.repository/.test(f.url)],
  ['routing', (f) => f.url.includes('find-my-way')],
  ['response headers and reply', (f) => /fastify\/lib\/(reply|headRoute)|\/cors\.js|error-handler/.test(f.url)],
  ['Fastify request pipeline (hooks, context)', (f) => f.url.includes('/fastify/')],
  ['node:http and sockets', (f) => /^node:(_http|net|internal\/(stream|streams|http|net|timers|process\/task_queues|async_hooks))/.test(f.url)],
  ['Tabula, other', (f) => f.url.includes('/dist/')],
];

/** Each stage's share of the busy samples; with `lastMs`, of those in the profile's last `lastMs` ms only (the measured load, without start-up and warm-up). */
export function stageShares(profile: CpuProfile, lastMs = Infinity): Array<[string, number]> {
  const parents = new Map<number, ProfileNode>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const stageOfNode = new Map<number, string>();
  const stageOf = (node: ProfileNode): string => {
    const known = stageOfNode.get(node.id);
    if (known) return known;
    const rule = rules.find(([, test]) => test(node.callFrame));
    const parent = parents.get(node.id);
    const stage = rule ? rule[0] : parent ? stageOf(parent) : 'other';
    stageOfNode.set(node.id, stage);
    return stage;
  };
  const totals = new Map<string, number>();
  let busy = 0;
  const total = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  let at = 0;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (total - at > lastMs * 1000) return;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') return;
    const delta = profile.timeDeltas[index] ?? 0;
    busy += delta;
    const stage = stageOf(node);
    totals.set(stage, (totals.get(stage) ?? 0) + delta);
  });
  return [...totals].map(([stage, time]): [string, number] => [stage, time / busy]).sort((a, b) => b[1] - a[1]);
}
