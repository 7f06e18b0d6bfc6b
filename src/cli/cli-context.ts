import { loadConfig } from '../config.js';
import type { Container } from '../container.js';
import { describeMissingDatabase } from '../db/existing-database.js';
import { ErrorCode, NotFoundError } from '../shared/errors.js';

/** Thrown for a wrong command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** Thrown when a command ran but did not do all it was asked: its message on stderr, its own exit code. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/**
 * Opens the same database a running server uses (SQLite WAL or PostgreSQL), runs `work`,
 * closes it. Only `init` may start a new database (`create`); every other command refuses
 * one that does not exist yet, so that a typo in `--data` or DATABASE_URL names the path
 * instead of creating an empty database there.
 */
export async function withContainer<T>(data: string | undefined, work: (container: Container) => Promise<T>, options: { create?: boolean } = {}): Promise<T> {
  const config = loadConfig(process.env, { data });
  if (!options.create) {
    const missing = await describeMissingDatabase(config);
    if (missing) throw new NotFoundError(missing, ErrorCode.databaseNotFound);
  }
  // Loaded on use, so `--help` and usage errors answer without loading every service.
  const { createContainer } = await import('../container.js');
  // A command's writes are few or its own (an import): the writer checkpoints them, no worker
  // started for it, with better-sqlite3's 16 MB cache for an import's B-trees.
  const container = await createContainer(config, { sqliteCacheKib: commandCacheKib, sqliteWriterCacheKib: 0, sqliteCheckpointEveryMs: 0 });
  try {
    return await work(container);
  } finally {
    await container.close();
  }
}

/**
 * A command reads what it needs once (an export streams the table through once), so SQLite's
 * page cache saves it nothing the OS's file cache does not: 2 MiB for its read connection and
 * each query worker, a quarter of a server's (the writer keeps better-sqlite3's 16 MB). Measured
 * in docs/decisions.md, "Export memory" (when a server's was 32 MiB, a fifth of an export's memory).
 */
const commandCacheKib = 2 * 1024;

/** `--json` prints exactly one JSON object; otherwise a readable line per key. */
export function printResult(value: object, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value)}\n`);
    return;
  }
  for (const [key, field] of Object.entries(value)) process.stdout.write(`${key}: ${typeof field === 'object' && field !== null ? JSON.stringify(field) : String(field)}\n`);
}

/** A header row and one row per item, columns padded to their widest cell; empty cells show `-`. */
export function printTable(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): void {
  const cells = [header, ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined || cell === '' ? '-' : String(cell))))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  for (const row of cells) process.stdout.write(`${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ')}\n`);
}

export function parseId(raw: string | undefined, what: string): number {
  const id = Number(raw);
  if (!raw || !Number.isInteger(id) || id < 1) throw new UsageError(`${what} must be a positive integer, got ${raw === undefined ? 'nothing' : JSON.stringify(raw)}`);
  return id;
}

/** `--spaces 1,2` → ['1', '2']; a flag given with no entries (`--spaces ""`) is a usage error, not an empty allow-list. */
export function splitList(raw: string | undefined, flag: string): string[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw.split(',').map((item) => item.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`${flag} needs at least one entry`);
  return items;
}
