import fs from 'node:fs';
import { CsvError, parse, type Options, type Parser } from 'csv-parse';

/**
 * `tabula import`: the rows of a CSV file with the line each starts on, so that every refusal
 * can name it. Lines count from 1 (the header); a quoted cell may span several lines. Blank
 * lines are skipped; every other row keeps its cells as written, however many (the import
 * checks the width against the header).
 */

/** One row: its cells and the line it ends on (`lineOf` gives the one it starts on). */
export interface CsvRow {
  cells: string[];
  endLine: number;
}

/** The line a row starts on: its last line, less the line breaks inside its quoted cells. */
export function lineOf(row: CsvRow): number {
  let breaks = 0;
  for (const cell of row.cells) {
    for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) breaks += 1;
  }
  return row.endLine - breaks;
}

/** A file that is not valid CSV: the line of the row it broke in. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(`line ${line}: not valid CSV (${detail})`);
  }
}

/** The rows of `file`, streamed; a syntax error throws `CsvSyntaxError` when the iteration reaches it. */
export function readCsvRows(file: string): { rows: AsyncIterable<CsvRow>; parser: Parser } {
  // Where the last row ended, to name the line a broken row starts on (csv-parse names the line it gave up on).
  let lastEnd = { lines: 0, emptyLines: 0 };
  const options: Options<CsvRow, string[]> = {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    on_record: (cells, context) => {
      lastEnd = { lines: context.lines, emptyLines: context.empty_lines };
      return { cells, endLine: context.lines };
    },
  };
  // The typings take a record of another shape than string[] only with `columns`.
  const parser = parse(options as unknown as Options);
  fs.createReadStream(file).on('error', (error) => parser.destroy(error)).pipe(parser);
  async function* rows(): AsyncGenerator<CsvRow> {
    try {
      for await (const row of parser as AsyncIterable<CsvRow>) yield row;
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      const context = error as CsvError & { empty_lines?: number };
      const blankSince = Math.max(0, (context.empty_lines ?? lastEnd.emptyLines) - lastEnd.emptyLines);
      throw new CsvSyntaxError(lastEnd.lines + blankSince + 1, error.message);
    }
  }
  return { rows: rows(), parser };
}
