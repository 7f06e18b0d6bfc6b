import type { Kysely } from 'kysely';
import type { Field } from '../fields/field.js';
import { fieldColumnName } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import { fromColumnValue } from '../fields/column-values.js';
import { buildSearchText } from './record-writer.js';
import { findRecordRowsAfter, updateRecord } from './records.repository.js';

const batchSize = 2000;

/**
 * Recomputes `_search` for every record from the given fields, e.g. after a searchable field
 * was deleted, so search no longer finds its text. Walks the table by id in batches inside the
 * caller's transaction.
 */
export async function rebuildSearchText(db: Kysely<any>, tableId: number, fields: readonly Field[]): Promise<void> {
  const searchable = fields.filter((f) => getFieldType(f.type).searchable);
  for (let afterId = 0; ; ) {
    const rows = await findRecordRowsAfter(db, tableId, afterId, batchSize, searchable.map((f) => fieldColumnName(f.id)));
    for (const row of rows) {
      const values = new Map(searchable.map((f) => [f, fromColumnValue(f, row[fieldColumnName(f.id)])]));
      await updateRecord(db, tableId, row.id, { _search: buildSearchText(values) });
    }
    if (rows.length < batchSize) return;
    afterId = Number(rows[rows.length - 1].id);
  }
}
