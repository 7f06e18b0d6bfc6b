/** A CSV file read by csv-worker.ts: its header, its rows with their line numbers, or why it cannot be read. */
export interface ParsedCsv {
  header: string[];
  rows: { line: number; cells: string[] }[];
  error?: string;
}

/** Reads `file` in a worker (a module of this origin: the console's CSP allows no other). */
export function parseCsv(file: File): Promise<ParsedCsv> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./csv-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<ParsedCsv>) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'the file could not be read'));
    };
    worker.postMessage(file);
  });
}
