import { sql, type RawBuilder } from 'kysely';
import type { Dialect, DialectName } from '../../db/dialect.js';
import type { Field } from '../fields/field.js';
import { fieldColumnName, fieldIndexName, recordTableName } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import { columnNameOf, isSystemField } from '../fields/system-fields.js';

export type IndexDirection = 'asc' | 'desc';
export type IndexOrigin = 'calendar' | 'view' | 'automatic' | 'manual';

/** At most this many fields in one index: past three equalities and a sort, the planner gains nothing. */
export const maxIndexFields = 4;

/**
 * An index on a user table. Without a direction, every field is indexed as stored: records
 * filtered by equality on the leading fields and compared (equality or range) on the last.
 * With one, the last field is the sort: keyed the way records sort, in that direction (one
 * field is walked either way, so its direction is `asc`).
 */
export interface IndexDefinition {
  tableId: number;
  fields: readonly Field[];
  direction: IndexDirection | null;
}

/** A field with the sort key of its type (folded text, a checkbox's false for empty): indexed as that key. */
const hasOrderKey = (field: Field) => getFieldType(field.type).orderKey !== undefined;

/**
 * Text and URL values run to 100,000 characters; a PostgreSQL B-tree entry holds about 2,700
 * bytes, so one long value would make every later write of it fail. SQLite has no such limit.
 */
const unboundedTextTypes = new Set(['text', 'longtext', 'url']);

/**
 * Why a field cannot be in an index on this engine, or null when it can. A multi-valued field
 * can be indexed alone on PostgreSQL (GIN, for "includes" filters); no SQLite index reaches
 * inside its JSON arrays.
 */
export function unindexableReason(field: Field, engine: DialectName, alone = false): string | null {
  const type = getFieldType(field.type);
  if (field.multiple && !(alone && engine === 'postgres')) return `${field.slug} holds several values${engine === 'postgres' ? ' (it can be indexed alone)' : ''}`;
  if (field.multiple) return null;
  if (!type.sortable) return `${field.slug} is a ${field.type} field, which has no order`;
  if (field.type === 'longtext') return `${field.slug} is a long text field`;
  if (engine === 'postgres' && unboundedTextTypes.has(field.type)) return `${field.slug} is a ${field.type} field, whose values can exceed what a PostgreSQL index entry holds`;
  return null;
}

/** One field is walked either way: its sort direction is always stored as `asc`. */
export function normalizedDirection(fields: readonly Field[], direction: IndexDirection | null): IndexDirection | null {
  if (direction === null) return null;
  return fields.length === 1 ? 'asc' : direction;
}

/**
 * The physical index: the same definition always gets the same name, so two logical indexes
 * of one definition (a calendar's and a hand-made one) share it. A one-field index on a plain
 * column keeps the name it has had since the first release.
 */
export function physicalIndexName(definition: IndexDefinition): string {
  const { tableId, fields, direction } = definition;
  const plainSort = direction !== null && fields.length === 1 && !hasOrderKey(fields[0]);
  if (fields.length === 1 && (direction === null || plainSort)) return isSystemField(fields[0]) ? `rec_${tableId}_${fields[0].slug}_idx` : fieldIndexName(fields[0]);
  const suffix = direction === null ? '' : fields.length === 1 ? '_s' : direction === 'desc' ? '_d' : '_a';
  return `rec_${tableId}_ix_${fields.map((f) => (isSystemField(f) ? f.slug : f.id)).join('_')}${suffix}`;
}

/**
 * The indexed columns. Equality fields are compared on the stored column; the last is keyed the
 * way records sort (compileOrder): ascending with empties first, descending with empties last,
 * then `id` ascending. SQLite's order (NULL lowest, the rowid after every index key) gives that
 * by itself; PostgreSQL needs the NULL placement and `id` spelt out. One field is walked either
 * way on both engines.
 */
function indexColumns(definition: IndexDefinition, dialect: Dialect): RawBuilder<unknown>[] {
  const { fields, direction } = definition;
  const postgres = dialect.name === 'postgres';
  const columns = fields.map((field, position): RawBuilder<unknown> => {
    const column = sql.ref(columnNameOf(field));
    if (position < fields.length - 1) return column;
    if (direction === null) return postgres && fields.length === 1 ? sql`${column} nulls first` : column;
    const orderKey = getFieldType(field.type).orderKey;
    const key = orderKey ? sql`(${orderKey(column, dialect)})` : column;
    if (fields.length === 1) return postgres ? sql`${key} nulls first` : key;
    if (direction === 'desc') return postgres ? sql`${key} desc nulls last` : sql`${key} desc`;
    return postgres ? sql`${key} asc nulls first` : sql`${key} asc`;
  });
  if (postgres && fields.length > 1 && direction !== null) columns.push(sql.ref('id'));
  return columns;
}

/** `create index …` for a definition; PostgreSQL builds without blocking writes (`concurrently`, outside any transaction). */
export function createIndexStatement(definition: IndexDefinition, dialect: Dialect, concurrently: boolean): RawBuilder<unknown> {
  const name = sql.id(physicalIndexName(definition));
  const table = sql.table(recordTableName(definition.tableId));
  if (definition.fields[0].multiple) {
    const column = sql.ref(fieldColumnName(definition.fields[0].id));
    return sql`create index ${sql.raw(concurrently ? 'concurrently ' : '')}if not exists ${name} on ${table} using gin (${column})`;
  }
  const columns = sql.join(indexColumns(definition, dialect));
  return concurrently ? sql`create index concurrently if not exists ${name} on ${table} (${columns})` : sql`create index if not exists ${name} on ${table} (${columns})`;
}

/** How an index is described to people: `stage, amount desc`. */
export function describeIndexFields(fields: readonly Field[], direction: IndexDirection | null): string {
  return fields.map((f, i) => (i === fields.length - 1 && direction !== null ? `${f.slug} ${direction}` : f.slug)).join(', ');
}
