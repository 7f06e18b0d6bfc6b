import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import type { Field, TableRecord } from '../api/types';
import { EditorInputError, parseEditorText } from './cell-value';

/**
 * Saves one cell (`record/<rid>/update` with that field only) and keeps each cell's last error
 * until it is saved again: an error is shown on its cell, never dropped.
 */
export function useCellSave(tid: number, replaceRecord: (row: number, record: TableRecord) => void) {
  const [errors, setErrors] = useState(() => new Map<string, string>());
  /** Values sent and not yet answered: the cell shows them meanwhile. */
  const [pending, setPending] = useState(() => new Map<string, unknown>());
  const setPendingValue = (key: string, value: unknown, waiting: boolean) =>
    setPending((current) => {
      const next = new Map(current);
      if (waiting) next.set(key, value);
      else next.delete(key);
      return next;
    });
  const queryClient = useQueryClient();
  const setError = (key: string, message: string | null) =>
    setErrors((current) => {
      const next = new Map(current);
      if (message === null) next.delete(key);
      else next.set(key, message);
      return next;
    });
  const save = async (row: number, record: TableRecord, field: Field, input: unknown): Promise<boolean> => {
    const key = `${record.id}:${field.id}`;
    try {
      const value = typeof input === 'string' || Array.isArray(input) ? parseEditorText(field, input as string | string[]) : input;
      setPendingValue(key, value, true);
      const updated = await unwrap(api.POST('/api/table/{tid}/record/{rid}/update', { params: { path: { tid, rid: record.id } }, body: { data: { [field.id]: value } } }));
      replaceRecord(row, updated as TableRecord);
      setError(key, null);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'record_not_found') void queryClient.invalidateQueries({ queryKey: ['table', tid, 'records'] });
      setError(key, error instanceof ApiError || error instanceof EditorInputError ? error.message : 'Could not save: the server did not answer');
      return false;
    } finally {
      setPendingValue(key, undefined, false);
    }
  };
  return { errors, pending, save };
}
