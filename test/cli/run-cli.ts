/**
 * Runs the BUILT `tabula` binary (`node dist/main.js …`) as a child process, the way an operator
 * would: against a fresh test database (SQLite file in a temp data dir, or a fresh PostgreSQL
 * database passed as DATABASE_URL), always with `--data <dir>` since the secret file lives there.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const mainScript = path.join(repoRoot, 'dist', 'main.js');

/**
 * Preloaded into every child (`node --import <this> dist/main.js …`): when the test worker dies
 * without cleaning up (vitest ends workers with a signal, so no 'exit' hook runs), the child is
 * re-parented and terminates itself the way an operator would stop it (SIGTERM).
 */
const parentWatchdog =
  'data:text/javascript,' +
  encodeURIComponent('const parent = process.ppid; setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, "SIGTERM"); }, 500).unref();');
const nodeArgs = (args: string[]) => ['--import', parentWatchdog, mainScript, ...args];

/** Per-test timeout for CLI tests: the machine is small and busy. */
export const cliTestTimeout = 60_000;
const defaultRunTimeout = 45_000;
/** For `beforeAll(ensureBuilt, buildTimeout)`: tsc on a busy 2-core machine. */
export const buildTimeout = 300_000;

/**
 * Builds dist/ when missing (`npm test` builds first; a bare `npx vitest run test/cli` may not have).
 * Call it in `beforeAll(ensureBuilt, buildTimeout)`: it blocks while tsc runs.
 */
export function ensureBuilt(): void {
  if (fs.existsSync(mainScript)) return;
  // Test files run in parallel workers: one builds, the others wait for it.
  const lock = path.join(os.tmpdir(), `tabula-cli-build-${crypto.createHash('sha256').update(repoRoot).digest('hex').slice(0, 16)}.lock`);
  const deadline = Date.now() + buildTimeout - 10_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (fs.existsSync(mainScript) && !fs.existsSync(lock)) return;
      // A lock left by a worker that was killed mid-build.
      if (Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for another worker to build dist/ (lock ${lock})`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    if (fs.existsSync(mainScript)) return;
    const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: repoRoot, encoding: 'utf8' });
    // tsc still emits when some unrelated file has a type error; only a missing binary stops the CLI tests.
    if (!fs.existsSync(mainScript)) throw new Error(`building dist/ failed:\n${build.stdout}\n${build.stderr}`);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Variables a developer's shell might carry that would change what the child does. */
const inheritedTabulaVariables = [
  'DATABASE_URL',
  'TABULA_DATA_DIR',
  'TABULA_SECRET',
  'TABULA_STORAGE_URL',
  'TABULA_FILES_HOST',
  'TABULA_RATE_LIMIT_PER_MINUTE',
  'TABULA_RECLAIM_INTERVAL',
  'TABULA_FETCH_ALLOW_HOSTS',
  'REDIS_URL',
  'TABULA_REDIS_PREFIX',
  'TABULA_TRUST_PROXY',
  'HOST',
  'PORT',
  'LOG_LEVEL',
];

export interface CliOptions {
  /** Set TABULA_SECRET; leave undefined to exercise the generated `<data>/secret`. */
  secret?: string;
  env?: Record<string, string>;
}

/** The `tabula` binary bound to one test database. */
export interface Cli {
  readonly database: TestDatabase;
  readonly dataDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** `tabula <args…> --data <dir>`. */
  run(...args: string[]): Promise<CliResult>;
  /** Like run, but fails the test unless the exit code is 0 and stderr is empty; returns stdout. */
  ok(...args: string[]): Promise<string>;
  /** Like ok, for a `--json` command: stdout must be exactly one line holding one JSON object. */
  json<T = Record<string, any>>(...args: string[]): Promise<T>;
  startServer(...args: string[]): Promise<Server>;
  /** Stops its servers and drops the database. */
  close(): Promise<void>;
}

export async function createCli(options: CliOptions = {}): Promise<Cli> {
  ensureBuilt();
  const database = await createTestDatabase();
  const env = cleanEnv();
  if (database.databaseUrl) env.DATABASE_URL = database.databaseUrl;
  if (options.secret !== undefined) env.TABULA_SECRET = options.secret;
  Object.assign(env, options.env);
  const servers: Server[] = [];

  const cli: Cli = {
    database,
    dataDir: database.dataDir,
    env,
    run: (...args) => runTabula([...args, '--data', database.dataDir], { env }),
    async ok(...args) {
      const result = await cli.run(...args);
      expect(result, `tabula ${args.join(' ')}`).toMatchObject({ code: 0, stderr: '' });
      return result.stdout;
    },
    async json(...args) {
      return expectSingleJsonObject(await cli.ok(...args));
    },
    async startServer(...args) {
      const server = await startServer([...args, '--data', database.dataDir], { env });
      servers.push(server);
      return server;
    },
    async close() {
      await Promise.all(servers.map((server) => server.stop()));
      await database.drop();
    },
  };
  return cli;
}

/** `--json` output: exactly one line, one JSON object (not an array, not several values). */
export function expectSingleJsonObject<T = Record<string, any>>(stdout: string): T {
  expect(stdout).toMatch(/^[^\n]+\n$/);
  const value = JSON.parse(stdout);
  expect(value !== null && typeof value === 'object' && !Array.isArray(value), `not a JSON object: ${stdout}`).toBe(true);
  return value as T;
}

/** Spawns `node dist/main.js <args>` and collects its output; kills it after `timeoutMs`. */
export function runTabula(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  ensureBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(args), { cwd: repoRoot, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    track(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tabula ${args.join(' ')} did not finish in ${options.timeoutMs ?? defaultRunTimeout} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? defaultRunTimeout);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The environment without any Tabula configuration: for commands that must not touch a database. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of inheritedTabulaVariables) delete env[name];
  return env;
}

export interface Server {
  /** `http://127.0.0.1:<port>`, as printed on the listening line. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Everything the server printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** GET or POST with an optional bearer key; answers status and parsed JSON body. */
  request(method: 'GET' | 'POST', pathname: string, options?: { key?: string; body?: unknown; cookie?: string }): Promise<HttpResponse>;
  /** SIGTERM, then SIGKILL if it has not exited within 15 s. Resolves with how it ended; safe to call twice. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface HttpResponse {
  status: number;
  body: any;
  headers: Headers;
}

const listeningLine = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;

/** Spawns `tabula serve --port 0 …` and resolves once it prints its listening line. */
export function startServer(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Server> {
  ensureBuilt();
  const child = spawn(process.execPath, nodeArgs(['serve', '--port', '0', ...args]), { cwd: repoRoot, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });

  let stopping: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        const result = await exited;
        clearTimeout(timer);
        return result;
      }
      return exited;
    })();
    return stopping;
  };

  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      void stop();
      reject(new Error(`${message}\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    const timer = setTimeout(() => fail(`tabula serve did not print its listening line in ${options.timeoutMs ?? defaultRunTimeout} ms`), options.timeoutMs ?? defaultRunTimeout);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(`tabula serve exited before listening (code ${code}, signal ${signal})`);
    });
    child.stdout!.on('data', () => {
      const match = listeningLine.exec(stdout);
      if (settled || !match) return;
      settled = true;
      clearTimeout(timer);
      const url = match[1];
      resolve({
        url,
        port: Number(match[2]),
        pid: child.pid!,
        stdout: () => stdout,
        stderr: () => stderr,
        request: (method, pathname, requestOptions) => httpRequest(url, method, pathname, requestOptions),
        stop,
      });
    });
  });
}

async function httpRequest(baseUrl: string, method: 'GET' | 'POST', pathname: string, options: { key?: string; body?: unknown; cookie?: string } = {}): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${pathname}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, headers: response.headers };
}

/** Every child this worker started; killed when the worker exits, so a failed test leaves no server behind. */
const children = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): void {
  children.add(child);
  child.on('exit', () => children.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const running of children) running.kill('SIGKILL');
  });
}

/** Whether a process id is still alive (signal 0 only checks). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The POSIX permission bits of a file, e.g. 0o600. */
export function fileMode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

/** The `YYYY-MM-DD HH:MM:SS` UTC format every datetime of the service uses. */
export const serviceDateTime = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** One statement straight on a command line's test database, behind the service's back. */
export async function executeOnDatabase(cli: Cli, statement: string): Promise<void> {
  if (cli.database.databaseUrl) {
    const client = new pg.Client({ connectionString: cli.database.databaseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Sqlite(path.join(cli.dataDir, 'tabula.db'));
  try {
    db.pragma('busy_timeout = 10000');
    db.exec(statement);
  } finally {
    db.close();
  }
}

/** One query straight on a command line's test database (reading what the servers wrote); its rows. */
export async function queryDatabase<T = Record<string, unknown>>(cli: Cli, statement: string): Promise<T[]> {
  if (cli.database.databaseUrl) {
    const client = new pg.Client({ connectionString: cli.database.databaseUrl });
    await client.connect();
    try {
      return (await client.query(statement)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Sqlite(path.join(cli.dataDir, 'tabula.db'), { readonly: true });
  try {
    db.pragma('busy_timeout = 10000');
    return db.prepare(statement).all() as T[];
  } finally {
    db.close();
  }
}
