// The server and browser the console benches drive: a real `tabula serve` of a build (this
// checkout's by default) on a fresh data directory and, on PostgreSQL, a fresh database (both
// removed by `stop`), and Debian's Chromium through playwright-core (never downloaded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import pg from 'pg';
import { startProcess, stopProcess } from './processes.js';

const adminUrl = process.env.TABULA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const chromiumPath = process.env.TABULA_E2E_CHROMIUM ?? '/usr/bin/chromium';

export interface BenchServer {
  url: string;
  /** The owner `serve` made on first start (initial-credentials.json): sign-in and account API key. */
  email: string;
  password: string;
  key: string;
  /** The server process (its pid for CPU or memory readings). */
  pid: number;
  /** A POST through the HTTP API with the account key; throws on an error answer. */
  call<T>(pathname: string, body: unknown): Promise<T>;
  /** Runs SQL on the bench's PostgreSQL database (nothing on SQLite), e.g. the VACUUM autovacuum would do after a bulk load. */
  sql(statement: string): Promise<void>;
  stop(): Promise<void>;
}

async function adminQuery(sql: string, connectionString = adminUrl): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Starts `tabula serve` for a bench (`name` names its temporary directory and database). `buildDir`
 * holds the `dist/` and `console/dist/` to run; `nodeArgs` go before the script (e.g. --cpu-prof).
 */
export async function startBenchServer(options: { name: string; engine: string; buildDir?: string; nodeArgs?: string[] }): Promise<BenchServer> {
  const buildDir = options.buildDir ?? '.';
  if (!fs.existsSync(path.join(buildDir, 'console/dist/index.html')) || !fs.existsSync(path.join(buildDir, 'dist/main.js'))) throw new Error('run npm run build first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tabula-${options.name}-`));
  const env: Record<string, string> = { TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'error' };
  const database = `tabula_${options.name.replace(/\W/g, '_')}_${process.pid}`;
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const postgres = options.engine === 'postgres';
  const cleanUp = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (postgres) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  };
  if (postgres) {
    await adminQuery(`CREATE DATABASE ${database}`);
    env.DATABASE_URL = databaseUrl.toString();
  }
  const server = await startProcess(process.execPath, [...(options.nodeArgs ?? []), path.join(buildDir, 'dist/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], env).catch(async (error: unknown) => {
    await cleanUp();
    throw error;
  });
  const stop = async () => {
    await stopProcess(server.child);
    await cleanUp();
  };
  const saved = fs.readFileSync(path.join(dataDir, 'initial-credentials.json'), 'utf8');
  const key = /"(?:api_key|key|secret)":\s*"([^"]+)"/.exec(saved)?.[1];
  if (!key) {
    await stop();
    throw new Error('no API key printed');
  }
  return {
    url: server.url,
    email: /"email":\s*"([^"]+)"/.exec(saved)?.[1] ?? 'admin@localhost',
    password: /"password":\s*"([^"]+)"/.exec(saved)?.[1] ?? '',
    key,
    pid: server.child.pid!,
    async call<T>(pathname: string, body: unknown): Promise<T> {
      const response = await fetch(server.url + pathname, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
    sql: (statement) => (postgres ? adminQuery(statement, databaseUrl.toString()) : Promise.resolve()),
    stop,
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

/** The owner's session, signed in once per server: sign-ins are limited to 10 a minute per e-mail and address (src/http/login-throttle.ts). */
const sessions = new WeakMap<BenchServer, Promise<Awaited<ReturnType<BrowserContext['storageState']>>>>();

async function signIn(browser: Browser, server: BenchServer) {
  const context = await browser.newContext();
  try {
    const login = await context.request.post(`${server.url}/api/auth/login`, { data: { email: server.email, password: server.password } });
    if (!login.ok()) throw new Error(`login: ${login.status()} ${await login.text()}`);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/**
 * A fresh browser context (its own cache, storage and connections, as another browser) holding
 * the server's owner's session, ready for the benches' page functions.
 */
export async function signedInContext(browser: Browser, server: BenchServer, viewport: { width: number; height: number }): Promise<BrowserContext> {
  let session = sessions.get(server);
  if (!session) sessions.set(server, (session = signIn(browser, server)));
  const context = await browser.newContext({ viewport, storageState: await session });
  // tsx compiles the benches' page functions with esbuild's keepNames, which calls __name.
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  return context;
}
