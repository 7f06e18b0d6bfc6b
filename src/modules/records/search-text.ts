import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import type { Field } from '../fields/field.js';
import { fieldColumnName, recordTableName } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import { fromColumnValue } from '../fields/column-values.js';
import { buildSearchText } from './record-writer.js';
import { findRecordRowsAfter } from './records.repository.js';
import { recordSearchOf } from './search/index.js';

const batchSize = 2000;

/**
 * Recomputes the search text of every record from the given fields, e.g. after a searchable
 * field was deleted, so search no longer finds its text. Walks the table by id in batches
 * inside the caller's transaction.
 */
export async function rebuildSearchText(db: Kysely<any>, dialect: DialectName, tableId: number, fields: readonly Field[]): Promise<void> {
  const searchable = fields.filter((f) => getFieldType(f.type).searchable);
  const search = recordSearchOf(dialect);
  for (let afterId = 0; ; ) {
    const rows = await findRecordRowsAfter(db, tableId, afterId, batchSize, searchable.map((f) => fieldColumnName(f.id)));
    const texts = rows.map((row) => ({ id: Number(row.id), text: buildSearchText(new Map(searchable.map((f) => [f, fromColumnValue(f, row[fieldColumnName(f.id)])]))) }));
    await search.writeText(db, recordTableName(tableId), texts);
    if (rows.length < batchSize) return;
    afterId = Number(rows[rows.length - 1].id);
  }
}
