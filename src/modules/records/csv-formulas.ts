/**
 * Spreadsheet formulas in CSV cells (docs/api.md, "records/export"; docs/decisions.md, "CSV
 * formulas"). A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return as a formula (OWASP's "CSV injection"): `=HYPERLINK(...)` in a record's text would run
 * on the machine of whoever opens the export. An export therefore writes such a text cell with
 * a `'` before it, which a spreadsheet shows as text, and `tabula import` takes that `'` off.
 *
 * For the round trip to be exact, a text that already starts with `'`s followed by a trigger
 * (`'=x`) gets one more `'` (`''=x`), and the import takes exactly one off: every text comes
 * back as it was.
 */

/** `escape` (the default): a `'` before text that a spreadsheet would run; `raw`: every cell as is. */
export type FormulaMode = 'escape' | 'raw';

export const formulaModes: readonly FormulaMode[] = ['escape', 'raw'];

/** Optional quotes, then a character a spreadsheet starts a formula with. */
const escapedOrTrigger = /^'*[=+\-@\t\r]/;
/** At least one quote, then a trigger: what `neutraliseFormula` wrote. */
const escaped = /^'+[=+\-@\t\r]/;

/** Cheap first test: most cells start with none of `' = + - @ \t \r`. */
function mayNeedWork(cell: string): boolean {
  const first = cell.charCodeAt(0);
  // ' = + - @ \t \r
  return first === 39 || first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13;
}

/** A text cell as an export writes it: `'` before a formula trigger (and before an already escaped one). */
export function neutraliseFormula(cell: string): string {
  return mayNeedWork(cell) && escapedOrTrigger.test(cell) ? `'${cell}` : cell;
}

/** A cell as an import reads it: the `'` an export put before a trigger taken off again. */
export function restoreFormula(cell: string): string {
  return mayNeedWork(cell) && escaped.test(cell) ? cell.slice(1) : cell;
}
