import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import type { Container } from '../container.js';
import type { ReclaimSchedule } from '../modules/files/reclaim.service.js';
import { ConflictError } from '../shared/errors.js';
import { expectPositionals, parseCommandArgs, printUsage, wantsHelp } from './cli-context.js';

const usage = 'usage: tabula serve [--port 8080] [--host 127.0.0.1] [--data ./data]';

/** The first scheduled sweep runs this long after start (or after one interval, if shorter). */
const firstSweepDelayMs = 10_000;

/** How often a process records its indexes' use and drops automatic indexes long unused. */
const indexMaintenanceIntervalMs = 10 * 60_000;

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
  const file = path.join(container.config.dataDir, 'initial-credentials.json');
  fs.mkdirSync(container.config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  process.stdout.write(
    [
      'Created the first account (shown once; also saved to ' + file + '):',
      `  login:    ${created.email} / ${created.password}`,
      `  API key:  ${created.api_key}`,
      '',
    ].join('\n'),
  );
}

export async function runServe(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { port: { type: 'string' }, host: { type: 'string' } });
  if (wantsHelp(values)) return printUsage(usage);
  expectPositionals(positionals, 0, usage);
  const config = loadConfig(process.env, { data: values.data, port: values.port, host: values.host });
  // Loaded here, not at the top: main.js imports every command, and the others should not pay for Fastify and all routes.
  const [{ createContainer }, { buildApp }, { startReclaimSchedule }] = await Promise.all([import('../container.js'), import('../app.js'), import('../modules/files/reclaim.service.js')]);
  // The services log through the app's logger once it exists (automatic index decisions).
  let log: (level: 'info' | 'warn', message: string) => void = () => undefined;
  const container = await createContainer(config, { log: (level, message) => log(level, message) });
  await bootstrapFirstAccount(container);
  const app = await buildApp(container, { logger: { level: process.env.LOG_LEVEL ?? 'warn' } });
  log = (level, message) => app.log[level](message);
  let reclaim: ReclaimSchedule | undefined;
  // Records which indexes served queries and drops automatic ones long unused.
  const indexMaintenance = setInterval(() => {
    container.services.automaticIndexes.maintain().catch((error: unknown) => app.log.error({ err: error }, 'index maintenance failed'));
  }, indexMaintenanceIntervalMs);
  indexMaintenance.unref();
  const shutdown = async () => {
    clearInterval(indexMaintenance);
    // A sweep in progress stops after the file in hand; what it had claimed waits for the next sweep.
    await reclaim?.stop();
    await app.close();
    await container.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ host: config.host, port: config.port });
  // TABULA_RECLAIM_INTERVAL=0s turns the schedule off (sweeps then come from `tabula files sweep`).
  if (config.reclaimIntervalMs > 0) {
    reclaim = startReclaimSchedule(container.services.reclaim, {
      intervalMs: config.reclaimIntervalMs,
      firstDelayMs: Math.min(firstSweepDelayMs, config.reclaimIntervalMs),
      onReport: (report) => {
        if (report.deleted + report.orphans + report.adopted + report.failed > 0) app.log.info({ reclaim: report }, 'reclaim sweep');
      },
      onFailure: (file, error) => app.log.warn({ err: error, path: file.path }, 'reclaim sweep: file left for the next sweep'),
      onError: (error) => app.log.error({ err: error }, 'reclaim sweep failed'),
    });
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  process.stdout.write(`listening on http://${host}:${port}\n`);
}
