import { sql } from 'kysely';
import { fieldColumnName, recordTableName } from '../src/modules/fields/physical-names.js';
import type { TestContext } from './build-test-app.js';
import { testEngine } from './test-database.js';

/**
 * `count` records whose text field `fieldSlug` reads `record number <n>`, made in one statement:
 * for tests that need volume, not realism (through the API, 50,000 records take a minute).
 */
export async function fillTable(ctx: TestContext, tableId: number, fieldSlug: string, count: number): Promise<void> {
  const db = ctx.container.database.db;
  const field = await db.selectFrom('fields').select('id').where('table_id', '=', tableId).where('slug', '=', fieldSlug).executeTakeFirstOrThrow();
  const table = sql.table(recordTableName(tableId));
  const column = sql.ref(fieldColumnName(Number(field.id)));
  const texts = sql.table(`${recordTableName(tableId)}_search`);
  if (testEngine === 'postgres') {
    await sql`insert into ${table} (created_at, updated_at, ${column})
      select '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'record number ' || n from generate_series(1, ${count}) as n`.execute(db);
  } else {
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      insert into ${table} (created_at, updated_at, ${column}) select '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'record number ' || i from n`.execute(db);
  }
  await sql`insert into ${texts} (id, text) select id, ${column} from ${table}`.execute(db);
}
