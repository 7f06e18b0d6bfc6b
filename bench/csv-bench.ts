import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The `csv` shape: `tabula export` of the whole bench table to a CSV file, then `tabula import`
 * of that file into a new, empty table with the same fields (made through the API), each as a
 * user runs it: a command of its own beside the running server. Wall time, records/s and the
 * command's peak RSS (worker threads included), reported by bench/peak-rss.mjs.
 */
export async function measureCsv(options: { url: string; apiKey: string; tableId: number; dataDir: string; dbEnv: Record<string, string>; log: (line: string) => void }): Promise<string[]> {
  const { url, apiKey, tableId, dataDir, dbEnv, log } = options;
  const file = path.join(dataDir, 'bench-export.csv');
  log('csv: tabula export of the whole table…');
  const exported = await runCommand(['export', '--table', String(tableId), '--out', file, '--data', dataDir], dbEnv);
  const exportedCount = Number(/exported (\d+) records/.exec(exported.stdout)?.[1]);
  const megabytes = fs.statSync(file).size / 1024 / 1024;

  const api = async (method: 'GET' | 'POST', route: string, body?: unknown) => {
    const response = await fetch(`${url}${route}`, { method, headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const source = await api('GET', `/api/table/${tableId}/get`);
  const fields = (source.fields as Array<Record<string, unknown>>).map(({ id, name, type, multiple, options: choices, decimals, table_id }) => ({ id, name, type, multiple, ...(choices ? { options: choices } : {}), ...(decimals !== undefined ? { decimals } : {}), ...(table_id !== undefined ? { table_id } : {}) }));
  const target = await api('POST', `/api/space/${source.space_id}/tables/create`, { name: `Imported ${new Date().toISOString()}`, fields });
  log(`csv: tabula import of ${exportedCount.toLocaleString('en')} rows into table ${target.id}…`);
  const imported = await runCommand(['import', '--table', String(target.id), file, '--data', dataDir], dbEnv);
  fs.rmSync(file, { force: true });
  const importedCount = Number(/imported (\d+)/.exec(imported.stdout)?.[1]);
  const line = (name: string, count: number, run: CommandRun, note: string) =>
    `| ${name} | ${count.toLocaleString('en')} | ${run.seconds.toFixed(1)} | ${Math.round(count / run.seconds).toLocaleString('en')} | ${Math.round(run.peakRssMb)} | ${note} |`;
  return [
    '| command | records | seconds | records/s | peak RSS MB | |',
    '|---|---|---|---|---|---|',
    line('tabula export (CSV)', exportedCount, exported, `${Math.round(megabytes)} MB file`),
    line('tabula import (CSV)', importedCount, imported, imported.stdout.trim().split('\n').at(-1) ?? ''),
  ];
}

interface CommandRun {
  seconds: number;
  peakRssMb: number;
  stdout: string;
}

function runCommand(args: string[], env: Record<string, string>): Promise<CommandRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', './bench/peak-rss.mjs', 'dist/main.js', ...args], { env: { ...process.env, ...env, LOG_LEVEL: 'error' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`tabula ${args.join(' ')} exited with ${code}: ${stderr}`));
      const peakKib = Number(/peak-rss-kib (\d+)/.exec(stderr)?.[1] ?? 0);
      resolve({ seconds: (performance.now() - started) / 1000, peakRssMb: peakKib / 1024, stdout });
    });
  });
}
