import { Worker } from 'node:worker_threads';

/** From the sources (tests, bench) a worker is TypeScript, loaded through tsx's loader; built, it is JavaScript. */
const fromSource = import.meta.url.endsWith('.ts');

/** Starts the worker module `name` (beside this file) with its data. */
export function startWorker(name: string, workerData: unknown): Worker {
  const url = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(url, { workerData });
  const load = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(load, { eval: true, workerData });
}
