import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import { loadConfig } from '../config.js';
import type { Container } from '../container.js';
import { ConflictError, ErrorCode } from '../shared/errors.js';
import { defineCommand } from './command-spec.js';

/** First run on an empty database: an owner `admin@localhost` and an account key, shown once. */
async function bootstrapFirstAccount(container: Container): Promise<void> {
  if ((await container.services.accounts.listAccountIds()).length > 0) return;
  let created;
  try {
    created = await container.services.accounts.createAccount({ email: 'admin@localhost', name: 'Admin' });
  } catch (error) {
    // Another process bootstrapped at the same moment: its transaction won (on PostgreSQL the loser sees a
    // raw unique violation on users.email, not a ConflictError), so there is nothing left to create.
    if (error instanceof ConflictError || (await container.services.accounts.listAccountIds()).length > 0) return;
    throw error;
  }
  const { file, instead } = saveInitialCredentials(container.config.dataDir, `${JSON.stringify(created, null, 2)}\n`);
  process.stdout.write(
    [
      ...(instead ? [`${instead} already exists (credentials of another database, such as the SQLite one before DATABASE_URL was set); it was left as it is.`] : []),
      'Created the first account (shown once; also saved to ' + file + '):',
      `  login:    ${created.email} / ${created.password}`,
      `  API key:  ${created.api_key}`,
      '',
    ].join('\n'),
  );
}

/**
 * Writes the first account's credentials to `<data>/initial-credentials.json` (mode 0600), and
 * never over an existing one: that file may hold the only copy of another database's owner
 * password (the SQLite database of the same directory, before DATABASE_URL was set). Then the
 * new credentials go to `initial-credentials-<UTC timestamp>.json` and `instead` names the
 * file that was kept.
 */
function saveInitialCredentials(dataDir: string, text: string): { file: string; instead?: string } {
  fs.mkdirSync(dataDir, { recursive: true });
  const preferred = path.join(dataDir, 'initial-credentials.json');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');
  const candidates = [preferred, path.join(dataDir, `initial-credentials-${stamp}.json`), ...[2, 3, 4, 5].map((n) => path.join(dataDir, `initial-credentials-${stamp}-${n}.json`))];
  for (const file of candidates) {
    try {
      fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    fs.chmodSync(file, 0o600);
    return file === preferred ? { file } : { file, instead: preferred };
  }
  throw new Error(`Could not find a free name for the initial credentials in ${dataDir}`);
}

/**
 * Fails before anything is created when another process listens on the port: otherwise the
 * first account would be created and its credentials printed by a server that then cannot start.
 * Port 0 (any free port) needs no check. A race with another process remains possible and ends
 * as before, in listen's own error.
 */
async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      if (error.code === 'EADDRINUSE') reject(new ConflictError(`Port ${port} is already in use on ${host} (another tabula serve?); stop it or choose another port with --port or PORT`, ErrorCode.portInUse));
      else if (error.code === 'EACCES') reject(new Error(`Not allowed to listen on ${where} (ports below 1024 need privileges); choose another port with --port or PORT`));
      else reject(new Error(`Cannot listen on ${where}: ${error.message}`));
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

export const runServe = defineCommand(
  {
    name: 'serve',
    synopsis: 'serve [--port 8080] [--host 127.0.0.1] [--data ./data] [--processes N|auto]',
    summary: 'start the HTTP server',
    description: [
      'Starts the HTTP server and prints "listening on http://HOST:PORT" once ready. Applies pending migrations first.',
      'On an empty database it creates an owner admin@localhost with a random password and an account key, prints them once',
      'and saves them to <data>/initial-credentials.json (mode 0600; an existing file is never overwritten).',
      'SIGTERM drains it: requests in flight finish (up to TABULA_DRAIN_SECONDS), change streams end, then it exits 0.',
      'Configuration comes from the environment (see docs/operations.md); flags win.',
    ].join('\n'),
    options: {
      port: { type: 'string', value: 'PORT', help: 'the TCP port (default 8080, or PORT; 0 picks a free one)' },
      host: { type: 'string', value: 'HOST', help: 'the address to listen on (default 127.0.0.1, or HOST; 0.0.0.0 for every interface)' },
      processes: { type: 'string', value: 'N', help: 'worker processes sharing the port (default 1, or TABULA_PROCESSES; auto = one per core)' },
    },
    examples: ['tabula serve --port 8080 --data /var/lib/tabula', 'tabula serve --processes auto', 'DATABASE_URL=postgres://tabula@db.internal/tabula tabula serve --host 0.0.0.0'],
    json: false,
  },
  async (values) => {
    await serve(values);
  },
);

/** How often `serve` puts in the log changes another process left queued (write-unit.ts). */
const pendingSequenceIntervalMs = 1000;

async function serve(values: { data?: string; port?: string; host?: string; processes?: string }): Promise<void> {
  const config = loadConfig(process.env, { data: values.data, port: values.port, host: values.host, processes: values.processes });
  // V8 reads this factor at each full collection, so it takes effect now (unlike the young generation's size).
  if (config.heapGrowthPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
  const { isClusterWorker, runClusterPrimary } = await import('./serve-cluster.js');
  const worker = isClusterWorker();
  if (!worker) await checkPortFree(config.host, config.port);
  if (!worker && config.processes > 1) {
    // Migrations and the first-run bootstrap happen here, once, before any worker exists.
    const { createContainer } = await import('../container.js');
    const container = await createContainer(config);
    try {
      await bootstrapFirstAccount(container);
    } finally {
      await container.close();
    }
    return runClusterPrimary(config, config.processes);
  }
  // Loaded here, not at the top: main.js imports every command, and the others should not pay for Fastify and all routes.
  const [{ pino }, { createContainer }, { buildApp }, { startBackgroundJobs }, { stopGracefully }] = await Promise.all([
    import('pino'),
    import('../container.js'),
    import('../app.js'),
    import('./background-jobs.js'),
    import('./graceful-stop.js'),
  ]);
  // One logger for the process: the services (automatic index decisions), the app and its requests.
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const container = await createContainer(config, { log: (level, message) => logger[level](message) });
  if (!worker) await bootstrapFirstAccount(container);
  const lifecycle = { draining: false };
  const app = await buildApp(container, { logger, consoleDir: config.consoleDir, lifecycle });
  // Changes a stopped process left queued between its commit and its sequencer run (PostgreSQL).
  const sequencing = setInterval(() => {
    container.services.unit.sequencePending().catch((error: unknown) => logger.error({ err: error }, 'sequencing queued changes failed'));
  }, pendingSequenceIntervalMs);
  sequencing.unref();
  // Their first look comes a second or more after this, by when the server listens.
  const background = startBackgroundJobs(container, logger);
  const shutdown = () =>
    stopGracefully({
      app,
      log: logger,
      container,
      lifecycle,
      drainMs: config.drainMs,
      stopBackground: async () => {
        clearInterval(sequencing);
        await background.stop();
      },
    });
  // A second SIGTERM during the drain changes nothing (a supervisor repeating itself); a second
  // SIGINT (Ctrl-C again at a terminal) means "now": the process exits without waiting.
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) {
      stopping = true;
      void shutdown();
    } else if (signal === 'SIGINT') process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  await app.listen({ host: config.host, port: config.port });
  // Webhook deliveries run in the background of every serve process; claims keep them apart (webhook-delivery.ts).
  await container.services.webhookDelivery.start();
  // A worker's address is its primary's to announce, once all of them listen.
  if (worker) return;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  process.stdout.write(`listening on http://${host}:${port}\n`);
}
