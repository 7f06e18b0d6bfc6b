import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { keys } from '../api/queries';
import type { Field, TableRecord } from '../api/types';
import { describeBatchError } from './batch-error';
import { copyText, formatTsv, parseTsv, pasteValue, PasteValueError, type CellRange } from './clipboard';

/** Cells pasted at once at most: one update_batch takes 1,000 records. */
const maxPastedRows = 1000;

interface GridClipboardOptions {
  tid: number;
  fields: Field[];
  total: number;
  /** May the signed-in user change records of the table at all (api/space-access.ts)? */
  canWrite: boolean;
  /** May they change this field's cells from the grid? */
  canEdit(field: Field): boolean;
  recordAt(row: number): TableRecord | undefined;
  replaceRecord(row: number, record: TableRecord): void;
  /** Rows not fetched yet, under the grid's view and toolbar query. */
  fetchRows(offset: number, limit: number): Promise<TableRecord[]>;
}

/**
 * Copy of the selected range as TSV and paste of a TSV block at the range's top-left cell. A
 * paste is ONE `records/update_batch` (all or nothing): a refused value names its record and
 * nothing is written. A block reaching past the last row is refused (add rows first): creating
 * records from a paste would be a second, separate write (docs/decisions.md, "Grid paste").
 */
export function useGridClipboard({ tid, fields, total, canWrite, canEdit, recordAt, replaceRecord, fetchRows }: GridClipboardOptions) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<{ kind: 'error' | 'done'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const copy = (range: CellRange): string => {
    const rows: string[][] = [];
    for (let row = range.top; row <= range.bottom; row += 1) {
      const record = recordAt(row);
      const cells: string[] = [];
      for (let column = range.left; column <= range.right; column += 1) cells.push(record ? copyText(fields[column], record.data[fields[column].id]) : '');
      rows.push(cells);
    }
    const cellCount = rows.length * (range.right - range.left + 1);
    setMessage({ kind: 'done', text: `Copied ${cellCount} ${cellCount === 1 ? 'cell' : 'cells'}` });
    return formatTsv(rows);
  };

  /** The records of rows top…top+count-1: those fetched already, else one records/query. */
  const recordsFor = async (top: number, count: number): Promise<TableRecord[]> => {
    const known = Array.from({ length: count }, (_, index) => recordAt(top + index));
    if (known.every(Boolean)) return known as TableRecord[];
    return fetchRows(top, count);
  };

  const paste = async (text: string, at: { row: number; column: number }) => {
    const block = parseTsv(text);
    if (block.length === 0) return;
    const width = Math.max(...block.map((row) => row.length));
    setMessage(null);
    // Refused before any request: the server would answer 403 for a reader or a field they may not write.
    if (!canWrite) {
      setMessage({ kind: 'error', text: 'You can read this table but not change it. Nothing was pasted.' });
      return;
    }
    if (at.row + block.length > total) {
      setMessage({ kind: 'error', text: `The pasted block has ${block.length} rows and only ${total - at.row} rows are left below the cell: add rows first. Nothing was pasted.` });
      return;
    }
    if (at.column + width > fields.length) {
      setMessage({ kind: 'error', text: `The pasted block has ${width} columns and only ${fields.length - at.column} columns are left from the cell. Nothing was pasted.` });
      return;
    }
    const locked = fields.slice(at.column, at.column + width).find((field) => !canEdit(field));
    if (locked) {
      setMessage({ kind: 'error', text: `${locked.name} cannot be changed here. Nothing was pasted.` });
      return;
    }
    if (block.length > maxPastedRows) {
      setMessage({ kind: 'error', text: `At most ${maxPastedRows} rows can be pasted at once. Nothing was pasted.` });
      return;
    }
    setBusy(true);
    try {
      const records = await recordsFor(at.row, block.length);
      const updates = block.map((cells, index) => {
        const record = records[index];
        const data: Record<string, unknown> = {};
        cells.forEach((cell, offset) => {
          const field = fields[at.column + offset];
          try {
            data[field.id] = pasteValue(field, cell);
          } catch (error) {
            throw new PasteValueError(`Row ${at.row + index + 1} (${record.title ?? `#${record.id}`}), ${(error as Error).message}`);
          }
        });
        return { id: record.id, data };
      });
      const updated = (await unwrap(api.POST('/api/table/{tid}/records/update_batch', { params: { path: { tid } }, body: { records: updates } as never }))) as TableRecord[];
      updated.forEach((record, index) => replaceRecord(at.row + index, record));
      const cellCount = block.length * width;
      setMessage({ kind: 'done', text: `Pasted ${cellCount} ${cellCount === 1 ? 'cell' : 'cells'} into ${block.length} ${block.length === 1 ? 'record' : 'records'}` });
    } catch (error) {
      if (error instanceof ApiError) setMessage({ kind: 'error', text: `Nothing was pasted: ${describeBatchError(error.message, at.row, updatesTitles(at.row, block.length, recordAt))}` });
      else if (error instanceof PasteValueError) setMessage({ kind: 'error', text: `Nothing was pasted: ${error.message}` });
      else setMessage({ kind: 'error', text: 'Nothing was pasted: the server did not answer' });
      if (error instanceof ApiError && error.code === 'record_not_found') void queryClient.invalidateQueries({ queryKey: keys.records(tid) });
    } finally {
      setBusy(false);
    }
  };

  return { copy, paste, message, busy, clearMessage: () => setMessage(null) };
}

function updatesTitles(top: number, count: number, recordAt: (row: number) => TableRecord | undefined): string[] {
  return Array.from({ length: count }, (_, index) => {
    const record = recordAt(top + index);
    return record ? `row ${top + index + 1} (${record.title ?? `#${record.id}`})` : `row ${top + index + 1}`;
  });
}
