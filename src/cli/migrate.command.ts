import { loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { printResult } from './cli-context.js';
import { defineCommand } from './command-spec.js';

export const runMigrate = defineCommand(
  {
    name: 'migrate',
    synopsis: 'migrate [--data DIR] [--json]',
    summary: 'apply schema migrations',
    description: 'Applies the pending schema migrations (serve also does this on start), creating the database if it does not exist yet. Safe while servers run.',
    options: {},
    examples: ['DATABASE_URL=postgres://tabula@db.internal/tabula tabula migrate'],
  },
  async (values) => {
    const config = loadConfig(process.env, { data: values.data });
    const database = await openDatabase(config);
    try {
      const applied = await migrateToLatest(database);
      if (values.json) printResult({ applied }, true);
      else process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'schema is up to date\n');
    } finally {
      await database.destroy();
    }
  },
);
