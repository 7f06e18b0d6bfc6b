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
