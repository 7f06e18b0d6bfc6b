import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface TabulaServer {
  baseUrl: string;
  /** The first account's owner and key, as `serve` printed them on the empty database. */
  email: string;
  password: string;
  apiKey: string;
  /** Calls the API with the account key (set-up that the page under test does not do). */
  api<T = unknown>(pathname: string, body?: unknown): Promise<T>;
}

/** `tabula serve` (the built dist/ and console/dist) on a free loopback port and a fresh database of this run's engine. */
async function startServer(database: TestDatabase): Promise<{ server: TabulaServer; child: ChildProcess }> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TABULA_RATE_LIMIT_PER_MINUTE: '100000', TABULA_RECLAIM_INTERVAL: '0s' };
  if (database.databaseUrl) env.DATABASE_URL = database.databaseUrl;
  const child = spawn(process.execPath, [path.join(repoRoot, 'dist/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1', '--data', database.dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tabula serve did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(listening);
      }
    });
    child.once('exit', (code) => reject(new Error(`tabula serve exited with ${code}:\n${output}`)));
  });
  const login = /login:\s+(\S+) \/ (\S+)/.exec(output);
  const key = /API key:\s+(\S+)/.exec(output);
  if (!login || !key) throw new Error(`tabula serve printed no initial credentials:\n${output}`);
  const baseUrl = started[1];
  const server: TabulaServer = {
    baseUrl,
    email: login[1],
    password: login[2],
    apiKey: key[1],
    async api(pathname, body) {
      const response = await fetch(`${baseUrl}${pathname}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${key[1]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
      return (await response.json()) as never;
    },
  };
  return { server, child };
}

/** One server per worker: every spec file's tests share it, as people share one server. */
export const test = base.extend<{ page: Page }, { tabula: TabulaServer }>({
  tabula: [
    async ({}, use) => {
      if (!fs.existsSync(path.join(repoRoot, 'console/dist/index.html'))) throw new Error('console/dist is not built: run npm run build');
      const database = await createTestDatabase();
      const { server, child } = await startServer(database);
      try {
        await use(server);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
        await database.drop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  // Every page fails its test on a CSP violation or an uncaught error.
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await use(page);
    expect(problems, 'no CSP violation or uncaught error in the page').toEqual([]);
  },
});

export { expect };

/** axe-core on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const severe = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    severe.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    `axe on ${label}`,
  ).toEqual([]);
}

/** A screenshot of each screen, for people to look at (.test-results/screens/<engine>-<name>.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(repoRoot, '.test-results/screens', `${process.env.TABULA_TEST_DB ?? 'sqlite'}-${name}.png`) });
}

/** Signs in as the owner, or as another user with their e-mail (a wrong owner password only submits the form). */
export async function signIn(page: Page, tabula: TabulaServer, password = tabula.password, email = tabula.email): Promise<void> {
  await page.goto(tabula.baseUrl + '/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Every spec file signs in to the worker's one server, from one address: past the login
  // throttle's 10 a minute (src/http/login-throttle.ts) the next sign-in, right or wrong, waits
  // for its window.
  const wrong = email === tabula.email && password !== tabula.password;
  const answered = wrong ? page.getByRole('alert') : page.getByRole('button', { name: 'Sign out' });
  const throttled = page.getByText('Rate limit exceeded');
  await expect(answered.or(throttled).first()).toBeVisible();
  if (await throttled.isVisible()) {
    await page.waitForTimeout(61_000);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(throttled).toBeHidden();
  }
  await expect(answered).toBeVisible();
}
