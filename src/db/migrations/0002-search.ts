import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/** PostgreSQL substring search needs pg_trgm (a trusted extension: the database owner may create it). */
export function searchMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') await sql`create extension if not exists pg_trgm`.execute(db);
    },
  };
}
