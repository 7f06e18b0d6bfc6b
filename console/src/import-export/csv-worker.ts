/// <reference lib="webworker" />
import Papa from 'papaparse';
import type { ParsedCsv } from './parse-csv';

/**
 * Parses a CSV file off the page's thread (a 100,000-row file keeps the page responsive): the
 * header and every row with the line it starts on (the header is line 1; a quoted cell may span
 * lines), blank lines skipped. A quote never closed refuses the whole file.
 */
self.onmessage = async (event: MessageEvent<File>) => {
  const text = await event.data.text();
  const rows: ParsedCsv['rows'] = [];
  let header: string[] | null = null;
  let start = 0;
  let line = 1;
  let syntaxError: string | null = null;
  Papa.parse<string[]>(text, {
    step: (result, parser) => {
      const refused = result.errors.find((error) => error.type === 'Quotes');
      if (refused) {
        syntaxError = `line ${line}: a quoted cell is never closed (${refused.message})`;
        parser.abort();
        return;
      }
      const cells = result.data;
      if (!(cells.length === 1 && cells[0] === '')) {
        if (header === null) header = cells;
        else rows.push({ line, cells });
      }
      const end = result.meta.cursor;
      for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) line += 1;
      start = end;
    },
  });
  const answer: ParsedCsv = syntaxError ? { error: syntaxError, header: [], rows: [] } : header ? { header, rows } : { error: 'the file is empty: it needs a header row', header: [], rows: [] };
  self.postMessage(answer);
};
