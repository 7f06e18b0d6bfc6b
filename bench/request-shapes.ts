import { createRandom, makeRecord } from './dataset.js';
import type { NextRequest } from './drive.js';

/**
 * The requests of one shape, for the tools that drive a single shape against a dataset `npm run
 * bench` made (profile-shape.ts, compare-builds.ts): a record get, a filtered count or list,
 * a create, an update of random records, deletes walking up from `firstDelete`, a batch of 1,000.
 */
export function requestShapes(dataset: { tableId: number; userIds: number[] }, rows: number, options: { seed: number; firstDelete?: number }): Record<string, NextRequest> {
  const random = createRandom(options.seed);
  const t = `/api/table/${dataset.tableId}`;
  const id = () => 1 + random.int(rows);
  let nextDelete = options.firstDelete ?? Math.floor(rows / 3);
  return {
    get: () => ({ method: 'GET', path: `${t}/record/${id()}/get` }),
    count: () => ({ method: 'POST', path: `${t}/records/count`, body: { where: { stage: 'won' } } }),
    list: () => ({ method: 'POST', path: `${t}/records/query`, body: { where: { stage: 'won' }, limit: 20 } }),
    create: () => ({ method: 'POST', path: `${t}/records/create`, body: { data: makeRecord(random, dataset.userIds) } }),
    update: () => ({ method: 'POST', path: `${t}/record/${id()}/update`, body: { data: { amount: random.int(1_000_000) / 100 } } }),
    delete: () => ({ method: 'POST', path: `${t}/record/${nextDelete++}/delete` }),
    'create-batch': () => ({ method: 'POST', path: `${t}/records/create_batch`, body: { records: Array.from({ length: 1000 }, () => ({ data: makeRecord(random, dataset.userIds) })) } }),
  };
}
