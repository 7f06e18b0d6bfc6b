import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { parseCommandArgs, printResult } from './cli-context.js';

export async function runMigrate(args: string[]): Promise<void> {
  const { values } = parseCommandArgs(args, {});
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
