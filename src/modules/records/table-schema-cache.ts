import type { Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';
import type { Field } from '../fields/field.js';
import { listTableFields } from '../tables/tables.service.js';

/**
 * Field lists by table, kept per process and keyed by the table's `schema_version`, which every
 * field change bumps in the same transaction. A stale entry is never used: each request reads
 * the current version with the table row it needs anyway, so several processes stay correct.
 */
export function createTableSchemaCache() {
  const entries = new Map<number, { version: number; fields: Field[] }>();
  const peek = (tableId: number, version: number): Field[] | undefined => {
    const cached = entries.get(tableId);
    return cached && cached.version === version ? cached.fields : undefined;
  };
  return {
    /** The field list when it is cached at this version, synchronously. */
    peek,
    async fields(db: Kysely<SystemSchema>, tableId: number, version: number): Promise<Field[]> {
      const cached = peek(tableId, version);
      if (cached) return cached;
      const fields = await listTableFields(db, tableId);
      entries.set(tableId, { version, fields });
      return fields;
    },
  };
}

export type TableSchemaCache = ReturnType<typeof createTableSchemaCache>;
