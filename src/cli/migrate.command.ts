import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { expectPositionals, parseCommandArgs, printResult, printUsage, wantsHelp } from './cli-context.js';

const usage = 'usage: tabula migrate [--data DIR] [--json]';

export async function runMigrate(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, {});
  if (wantsHelp(values)) return printUsage(usage);
  expectPositionals(positionals, 0, usage);
  const config = loadConfig(process.env, { data: values.data });
  const database = openDatabase(config);
  try {
    const applied = await migrateToLatest(database);
    if (values.json) printResult({ applied }, true);
    else process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'schema is up to date\n');
  } finally {
    await database.destroy();
  }
}
