import { sql, type RawBuilder } from 'kysely';
import { ValidationError } from '../../shared/errors.js';
import { isStorableId } from '../../shared/ids.js';
import type { Field } from './field.js';
import type { Operator } from './operators.js';
import type { FieldType } from './field-type.js';
import type { FilterContext } from './value-context.js';
import { compareEmptiness, compareScalar, describe, FieldValueError, filterError, isEmptyInput, matchNothing, unsupportedOperator, storedIds } from './value-helpers.js';

/** Any integer names a record; one no record can have (shared/ids.ts) simply does not exist. */
function isRecordId(id: unknown): id is number {
  return Number.isInteger(id);
}

function referencedId(item: unknown): unknown {
  return typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as { id?: unknown }).id : item;
}

export const lookupField: FieldType = {
  name: 'lookup',
  multiplicity: 'optional',
  titleTarget: (field) => (field.multiple ? undefined : (field.settings.table_id as number)),
  settingKeys: ['table_id'],
  async parseSettings(raw, ctx, previous) {
    const tableId = raw.table_id ?? previous?.table_id;
    if (!Number.isInteger(tableId)) throw new ValidationError('Invalid field definition: table_id is required for lookup fields and must be an integer');
    if (previous && tableId !== previous.table_id) throw new ValidationError('Invalid field definition: the table_id of a lookup field cannot be changed');
    // The target was checked at creation; re-checking on update would lock the field once that table is deleted.
    if (previous) return { table_id: tableId };
    // A table the caller cannot see (another account's, or a space it may not see) is refused in the very same words.
    if (!isStorableId(tableId) || !(await ctx.isVisibleTable(tableId as number))) throw new ValidationError(`Invalid field definition: table_id ${tableId} is not a table of this account`);
    return { table_id: tableId };
  },
  columnType: () => 'integer',
  sortable: false,
  searchable: false,
  matchable: true,
  async toStored(input, field, ctx) {
    if (isEmptyInput(input)) return null;
    const items: unknown[] = Array.isArray(input) ? input : [input];
    // findIndex, not find: an object without id yields `undefined`, which `find` cannot report.
    const badIndex = items.findIndex((item) => !isRecordId(referencedId(item)));
    if (badIndex !== -1) throw new FieldValueError(field, `expected a record id or {id, title}, got ${describe(items[badIndex])}`);
    const ids = [...new Set(items.map(referencedId))];
    const existing = await ctx.existingRecordIds(field.settings.table_id as number, (ids as number[]).filter(isStorableId));
    const missing = (ids as number[]).find((id) => !existing.has(id));
    if (missing !== undefined) throw new FieldValueError(field, `record ${missing} does not exist in table ${field.settings.table_id}`);
    if (field.multiple) return ids;
    if (ids.length > 1) throw new FieldValueError(field, 'only one record is allowed');
    return ids[0];
  },
  async prefetch(inputs, field, ctx) {
    const ids = inputs.flatMap((input) => (Array.isArray(input) ? input : [input]).map(referencedId)).filter(isStorableId);
    if (ids.length > 0) await ctx.existingRecordIds(field.settings.table_id as number, [...new Set(ids)]);
  },
  readsOtherRows: true,
  readMany(stored, field, ctx) {
    const present = (titles: Map<number, string | null>) =>
      stored.map((value) => {
        const found = storedIds(value).filter((id) => titles.has(id)).map((id) => ({ id, title: titles.get(id) ?? null }));
        return field.multiple ? found : (found[0] ?? null);
      });
    const tableId = field.settings.table_id as number;
    const ids = [...new Set(stored.flatMap(storedIds))];
    const known = ctx.knownTitles(tableId, ids);
    return known ? present(known) : ctx.recordTitles(tableId, ids).then(present);
  },
  async compileFilter(op, value, field, ctx) {
    const condition = compareLookup(op, value, field, ctx);
    // Reads show a lookup into a table the caller cannot see (or one that is gone) as empty, so
    // its filters see it empty too: whatever id is asked, nothing tells what the records hold.
    if (await ctx.isVisibleTable(field.settings.table_id as number)) return condition;
    const emptyAsked = value === null || value === '';
    const matchesEmpty = op === 'empty' || (op === 'eq' && emptyAsked) || (op === 'ne' && !emptyAsked);
    return matchesEmpty ? matchEverything : matchNothing;
  },
};

const matchEverything = sql<boolean>`1 = 1`;

/** The condition on the stored ids; throws for an operator or a value a lookup cannot take. */
function compareLookup(op: Operator, value: unknown, field: Field, ctx: FilterContext): RawBuilder<boolean> {
  if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
  if (op !== 'eq' && op !== 'ne') throw unsupportedOperator(field, op);
  if (value === null || value === '') return compareEmptiness(op === 'eq' ? 'empty' : 'not_empty', ctx.column);
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : referencedId(value);
  if (!Number.isInteger(id)) throw filterError(field, `expected a record id, got ${describe(value)}`);
  // No record has an id outside the column's range: nothing equals it, everything differs.
  if (!isStorableId(id)) return op === 'eq' ? matchNothing : matchEverything;
  if (!field.multiple) return compareScalar(op, ctx.column, id);
  const includes = ctx.dialect.jsonArrayIncludes(ctx.column, id as number);
  return op === 'eq' ? includes : sql<boolean>`(${ctx.column} is null or not ${includes})`;
}
