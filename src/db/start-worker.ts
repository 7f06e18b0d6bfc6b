import { Worker } from 'node:worker_threads';

/** From the sources (tests, bench) a worker is TypeScript, loaded through tsx's loader; built, it is JavaScript. */
const fromSource = import.meta.url.endsWith('.ts');

/** Starts the worker module `name` beside `near` (a module's `import.meta.url`; by default this folder's) with its data. */
export function startWorker(name: string, workerData: unknown, near: string = import.meta.url): Worker {
  const url = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, near);
  if (!fromSource) return new Worker(url, { workerData });
  const load = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(load, { eval: true, workerData });
}
