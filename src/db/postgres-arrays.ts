import { sql, type RawBuilder } from 'kysely';

/** A text that must be escaped inside a quoted array element. */
const needsEscape = /[\\"]/;

/**
 * A PostgreSQL array literal (`{1,NULL,"a \"b\""}`) of one column's values, sent as a single
 * text parameter cast to the column's array type: a multi-row insert as one statement of one
 * parameter per column, expanded by `unnest` (records.repository insertRecordRows). Built here
 * rather than by the driver, whose conversion of a JavaScript array runs two regular expressions
 * on every element. Values are column values (toColumnValue): null, numbers, booleans and
 * strings (JSON text for jsonb columns); any other object goes as its JSON text.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  let text = '{';
  for (let n = 0; n < values.length; n++) {
    if (n > 0) text += ',';
    const value = values[n];
    if (value === null || value === undefined) text += 'NULL';
    else if (typeof value === 'number' || typeof value === 'boolean') text += String(value);
    else {
      // Quoted always: an unquoted NULL, a brace or a comma would be read as syntax.
      const element = typeof value === 'string' ? value : JSON.stringify(value);
      text += `"${needsEscape.test(element) ? element.replace(/[\\"]/g, '\\$&') : element}"`;
    }
  }
  return `${text}}`;
}

/**
 * The most elements a statement's array parameter is planned for: its length rounded up to a
 * power of two, written into the statement's text (`arrayRows`), so that a handful of texts serve
 * every length.
 */
export function arrayBound(length: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, length)));
}

/**
 * The elements of an array parameter (`cast(… as type[])`) as rows named `column`, with the
 * planner told how many there are at most: a `limit` of `bound` (arrayBound of the array's
 * length, never less than it, so no element is dropped). PostgreSQL plans a named statement's
 * generic plan as if an array parameter had 10 elements; against the custom plans of one or two
 * ids it looked dearer, so PostgreSQL never chose it and planned each run again (docs/decisions.md,
 * "Statements that take ids as arrays"). With the bound, the generic plan is the custom plans'
 * own (an index probe an element, on a small table as on a large one), and PostgreSQL keeps it.
 */
export function arrayRows(array: unknown, type: string, column: string, bound: number): RawBuilder<unknown> {
  return sql`(select unnest(cast(${array} as ${sql.raw(type)}[])) as ${sql.ref(column)} limit ${sql.lit(bound)})`;
}
