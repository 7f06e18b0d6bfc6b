import { LRUCache } from 'lru-cache';
import type { Field } from '../fields/field.js';
import { fieldColumnName } from '../fields/physical-names.js';
import { columnDecoder } from '../fields/column-values.js';
import { getFieldType } from '../fields/registry.js';
import { titleReader } from '../fields/title.js';
import type { FieldType } from '../fields/field-type.js';
import type { ReadContext } from '../fields/value-context.js';
import type { RecordRow } from './records.repository.js';
import type { RecordTable } from './record-table.js';

export interface RecordObject {
  id: number;
  title: string | null;
  created_at: string;
  updated_at: string;
  data: Record<string, unknown>;
}

/** The columns a read needs: the requested fields plus the title field. */
export function columnsFor(table: RecordTable, fields: readonly Field[]): string[] {
  const needed = new Set(fields);
  if (table.titleField) needed.add(table.titleField);
  return [...needed].map((f) => fieldColumnName(f.id));
}

/** Which fields a read returns: all, or the `fields` whitelist (an unknown slug → 400). */
export function selectFields(table: RecordTable, whitelist: readonly string[] | null, onUnknown: (slug: string) => Error): Field[] {
  if (whitelist === null) return table.fields;
  const reserved = new Set(['id', 'title', 'created_at', 'updated_at']);
  return whitelist.flatMap((slug) => {
    const field = table.fieldsBySlug.get(slug);
    if (field) return [field];
    if (reserved.has(slug)) return [];
    throw onUnknown(slug);
  });
}

/** What presenting a list of fields needs, worked out once per field list (it lives as long as its cached metadata). */
interface Presentation {
  columns: string[];
  types: FieldType[];
  /** Per field, how its column reads back to the stored value; null: as is. */
  decoders: Array<((column: unknown) => unknown) | null>;
  /** The record object of a row, its title and the fields' values (by field, then by row). */
  build: RecordBuilder;
}

type RecordBuilder = (row: RecordRow, title: string | null, values: readonly unknown[][], index: number) => RecordObject;

/**
 * Record builders by their slugs (joined by commas): a field list made per request (an update's
 * written fields, a query's `fields`) finds the builder of the same slugs, compiled once.
 */
const builders = new LRUCache<string, RecordBuilder>({ max: 1000 });

/**
 * A record builder for these slugs, compiled once: an object literal of constant keys is
 * cloned from V8's boilerplate, where `data[slug] = value` in a loop made every record through
 * megamorphic keyed stores and map transitions (a third of a get's presenting, session 47).
 * Slugs match `^[a-z][a-z0-9_]{0,62}$` (field-definition.ts), and are written as JSON strings.
 */
export function recordBuilderOf(slugs: readonly string[]): RecordBuilder {
  const key = slugs.join(',');
  let build = builders.get(key);
  if (!build) {
    const data = slugs.map((slug, field) => {
      if (!/^[a-z][a-z0-9_]*$/.test(slug)) throw new Error(`recordBuilderOf: not a slug: ${JSON.stringify(slug)}`);
      return `${JSON.stringify(slug)}: values[${field}][index]`;
    });
    build = new Function('row', 'title', 'values', 'index', `return { id: Number(row.id), title, created_at: row.created_at, updated_at: row.updated_at, data: { ${data.join(', ')} } };`) as RecordBuilder;
    builders.set(key, build);
  }
  return build;
}

const presentations = new WeakMap<readonly Field[], Presentation>();

function presentationOf(fields: readonly Field[]): Presentation {
  let known = presentations.get(fields);
  if (!known) {
    // Column keys made once: a key built anew must be looked up in V8's string table every time.
    known = {
      columns: fields.map((field) => fieldColumnName(field.id)),
      types: fields.map((field) => getFieldType(field.type)),
      decoders: fields.map(columnDecoder),
      build: recordBuilderOf(fields.map((field) => field.slug)),
    };
    presentations.set(fields, known);
  }
  return known;
}

/** Rows → record objects; user and lookup values resolved with one batch per field. */
export async function presentRecords(rows: readonly RecordRow[], table: RecordTable, fields: readonly Field[], ctx: ReadContext): Promise<RecordObject[]> {
  const { columns, types, decoders, build } = presentationOf(fields);
  // Started together, awaited only where a type resolves values (users, lookups): the others
  // answer synchronously, and a promise per field per request is not free.
  const pending = fields.map((field, index) => {
    const column = columns[index];
    const decode = decoders[index];
    return types[index].readMany(decode ? rows.map((row) => decode(row[column])) : rows.map((row) => row[column]), field, ctx);
  });
  const values: unknown[][] = [];
  for (const column of pending) values.push(column instanceof Promise ? await column : column);
  const titleColumn = table.titleField ? fieldColumnName(table.titleField.id) : null;
  const titleText = table.titleField ? titleReader(table.titleField) : null;
  return rows.map((row, index) => build(row, titleColumn ? titleText!(row[titleColumn]) : null, values, index));
}
