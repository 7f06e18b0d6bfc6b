import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig } from '../config.js';
import type { Container } from '../container.js';

/** Thrown for a wrong command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

const commonOptions = {
  data: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export function parseCommandArgs<T extends ParseArgsConfig['options']>(args: string[], options: T) {
  try {
    return parseArgs({ args, options: { ...commonOptions, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Opens the same database a running server uses (SQLite WAL or PostgreSQL), runs `work`, closes it. */
export async function withContainer<T>(data: string | undefined, work: (container: Container) => Promise<T>): Promise<T> {
  // Loaded on use, so `--help` and usage errors answer without loading every service.
  const { createContainer } = await import('../container.js');
  const container = await createContainer(loadConfig(process.env, { data }));
  try {
    return await work(container);
  } finally {
    await container.close();
  }
}

/** `--json` prints exactly one JSON object; otherwise a readable line per key. */
export function printResult(value: object, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value)}\n`);
    return;
  }
  for (const [key, field] of Object.entries(value)) process.stdout.write(`${key}: ${typeof field === 'object' ? JSON.stringify(field) : String(field)}\n`);
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

/** `--help`, `-h` or a `help` subcommand: true when the command should print its usage and stop. */
export function wantsHelp(values: { help?: boolean }, subcommand?: string): boolean {
  return values.help === true || subcommand === '--help' || subcommand === '-h' || subcommand === 'help';
}

export function printUsage(usage: string): void {
  process.stdout.write(`${usage}\n`);
}

/** Rejects stray arguments (`keys revoke 1 2`) instead of silently ignoring them. */
export function expectPositionals(positionals: string[], count: number, usage: string): void {
  if (positionals.length > count) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[count])}\n${usage}`);
}
