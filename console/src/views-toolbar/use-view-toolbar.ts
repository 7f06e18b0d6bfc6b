import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../api/client';
import type { Field } from '../api/types';
import type { SettingErrors } from './filter-toolbar';
import { storedWidths, storeWidths, useViews } from './views-api';
import { emptyViewState, queryBody, sameSavedParts, stateOfView, type ViewState } from './view-state';

/** Typing in the search box or a filter's value asks the server once it pauses this long. */
const typingPauseMs = 300;

/**
 * The toolbar's state for one table and view: starts as the view's saved settings, changes
 * with the toolbar, and gives the body that records/query and records/count are sent.
 */
export function useViewToolbar(tid: number, viewId: number) {
  const views = useViews(tid);
  const view = views.data?.find((candidate) => candidate.id === viewId);
  const [state, setState] = useState<ViewState>(() => ({ ...emptyViewState, widths: storedWidths(tid, viewId) }));
  const viewVersion = view ? JSON.stringify(view) : '';
  useEffect(() => {
    setState(stateOfView(view, storedWidths(tid, viewId)));
    // A view's settings are taken again when the view (or its saved version) changes, not on each render.
  }, [tid, viewId, viewVersion]);

  const saved = stateOfView(view, state.widths);
  // Until the view is read, the grid queries it by id (its settings are the server's to apply).
  const unchanged = !view || sameSavedParts(state, saved);
  const body = queryBody(state, viewId, unchanged);
  const bodyJson = JSON.stringify(body);
  const [settledJson, setSettledJson] = useState(bodyJson);
  useEffect(() => {
    if (bodyJson === settledJson) return;
    const timer = setTimeout(() => setSettledJson(bodyJson), typingPauseMs);
    return () => clearTimeout(timer);
  }, [bodyJson, settledJson]);
  // Switching views applies at once (no pause): only typed changes wait.
  useEffect(() => setSettledJson(JSON.stringify(queryBody(stateOfView(view, {}), viewId, true))), [tid, viewId, viewVersion]);
  const settledBody = useMemo(() => JSON.parse(settledJson) as Record<string, unknown>, [settledJson]);

  const change = (next: ViewState) => {
    if (JSON.stringify(next.widths) !== JSON.stringify(state.widths)) storeWidths(tid, viewId, next.widths);
    setState(next);
  };
  /** A column's width from the grid's header (null: automatic again), kept in this browser for this table and view. */
  const resizeColumn = (fieldId: string, width: number | null) => {
    const { [fieldId]: _previous, ...widths } = state.widths;
    change({ ...state, widths: width === null ? widths : { ...widths, [fieldId]: width } });
  };
  return { views, view, state, change, resizeColumn, dirty: !!view && view.id !== 0 && !unchanged, queryBody: settledBody, queryKeyPart: settledJson };
}

/**
 * Puts a server error on the setting it is about (docs/errors.md): a filter naming its field
 * or its position, the sort, the view's name; anything else on the toolbar.
 */
export function settingErrors(error: unknown, state: ViewState, fields: Field[]): SettingErrors {
  const errors: SettingErrors = { filters: new Map() };
  if (!error) return errors;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : '';
  if (code === 'invalid_order_by') errors.sort = message;
  else if (code === 'invalid_filter' || code === 'invalid_field_value') {
    const position = /filters\[(\d+)\]/.exec(message);
    let index = position ? Number(position[1]) : -1;
    if (index < 0) {
      const named = /^Invalid (?:filter|value for field):? ([^:]+):/.exec(message)?.[1]?.trim();
      index = state.filters.findIndex((filter) => filter.column === named || fields.find((field) => field.id === filter.column)?.name === named);
    }
    if (index >= 0) errors.filters.set(index, message);
    else errors.other = message;
  } else if (/^Invalid name/.test(message)) errors.name = message;
  else if (/^Invalid (config|type)\b/.test(message)) errors.config = message;
  else if (code === 'invalid_parameters' && /search/i.test(message)) errors.search = message;
  else errors.other = message;
  return errors;
}
