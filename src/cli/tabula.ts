/** The `tabula` command line: one subcommand per module command file, usage, exit codes. */
import fs from 'node:fs';
import { runAccounts, runInit } from './accounts.command.js';
import { runChanges } from './changes.command.js';
import { CommandFailed, UsageError } from './cli-context.js';
import { runFiles } from './files.command.js';
import { runExport } from './records-export.command.js';
import { runImport } from './records-import.command.js';
import { runIndexes } from './indexes.command.js';
import { runKeys } from './keys.command.js';
import { runWebhooks } from './webhooks.command.js';
import { runMigrate } from './migrate.command.js';
import { runServe } from './serve.command.js';
import { runRecords, runTrash } from './trash.command.js';
import { runUsers } from './users.command.js';
import { loadConfig } from '../config.js';
import { describeDriverError, translateDatabaseError } from '../db/db-errors.js';
import { AppError } from '../shared/errors.js';

const commands: Record<string, (args: string[]) => Promise<void>> = {
  serve: runServe.run,
  init: runInit.run,
  accounts: runAccounts,
  users: runUsers,
  keys: runKeys,
  files: runFiles,
  indexes: runIndexes,
  export: runExport.run,
  import: runImport.run,
  records: runRecords,
  changes: runChanges,
  trash: runTrash,
  webhooks: runWebhooks,
  migrate: runMigrate.run,
};

const usage = `usage: tabula <command> [options]

commands:
  serve [--port 8080] [--host 127.0.0.1] [--data ./data]   start the HTTP server
  init --email E [--name N] [--password P] [--json]         create the first account
  accounts create|list ...                                  add and list accounts
  users create|update|list ...                              manage users
  keys create|list|revoke|rotate ...                        manage API keys
  files pending|restore PATH|sweep [--as-of ISO_DATETIME]   the reclaim queue of released files
  indexes list|create|delete --table ID ...                  a table's indexes
  export --table ID [--format csv|json] [--out FILE]        a table's records as CSV or JSON
  import --table ID FILE.csv [--upsert slug,…]              add or upsert records from CSV
  records restore --table ID RECORD_ID…                     put deleted records back from the trash
  changes tail --table ID [--after SEQ] [--follow]          a table's changes, one JSON change a line
  changes purge [--as-of ISO_DATETIME]                      remove changes older than TABULA_CHANGES_DAYS now
  trash purge [--as-of ISO_DATETIME]                        purge records deleted over TABULA_TRASH_DAYS ago now
  webhooks list|create|delete|deliveries|verify ...         manage webhooks; check a request's signature
  migrate                                                   apply schema migrations

Every command takes --data DIR (or TABULA_DATA_DIR) and DATABASE_URL; only serve, init and
migrate create a database that does not exist yet.
Run \`tabula <command> --help\` for its options and examples; \`tabula --version\` prints the version.`;

/** The package version, read two levels above this file in dist/ (built) or src/ (source). */
function readVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`tabula ${readVersion()}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    const problem = name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`;
    process.stderr.write(`tabula: ${problem}\n\n${usage}\n`);
    return 2;
  }
  try {
    await command(args);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`tabula ${name}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CommandFailed) {
      process.stderr.write(`tabula ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`tabula ${name}: ${describeFailure(error)}\n`);
    return 1;
  }
}

/**
 * One line for a failed command, never a stack trace: an AppError's message; a driver error
 * translated as the HTTP API would (db-errors.ts), followed by what the driver said, which an
 * operator needs (`Database unavailable; try again later (connect ECONNREFUSED 127.0.0.1:5432)`).
 */
function describeFailure(error: unknown): string {
  if (error instanceof AppError) return oneLine(error.message);
  let translated: AppError | undefined;
  try {
    const config = loadConfig(process.env);
    translated = translateDatabaseError(error, config.databaseUrl ? 'postgres' : 'sqlite', config);
  } catch {
    // A configuration the command could not load either: its own error is the one to show.
  }
  if (translated) return oneLine(`${translated.message} (${describeDriverError(error)})`);
  return oneLine(error instanceof Error ? error.message || String(error) : String(error));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

const code = await main(process.argv.slice(2));
// serve keeps running; every other command ends here, once its output is out: on a pipe
// Node writes stdout asynchronously, and process.exit drops what the reader has not taken yet
// (a CI run once got a `changes tail` cut mid-line). A reader gone (`| head`) ends it all the same.
if (process.argv[2] !== 'serve' || code !== 0) {
  process.stdout.on('error', () => undefined);
  process.stdout.write('', () => process.exit(code));
}
