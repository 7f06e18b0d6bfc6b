import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { keys } from '../api/queries';
import type { SavedView, ViewState } from './view-state';

export const viewsKey = (tid: number) => [...keys.table(tid), 'views'] as const;

/** The table's views: the Default view (id 0) first, then the saved ones by name. */
export function useViews(tid: number) {
  return useQuery({ queryKey: viewsKey(tid), queryFn: async () => (await unwrap(api.GET('/api/table/{tid}/views/list', { params: { path: { tid } } }))) as unknown as SavedView[] });
}

/** A view's layout: its type and config (a grid's config is the toolbar's columns). */
export interface ViewLayout {
  type: string;
  config: Record<string, unknown>;
}

/** The body of views/create and view/update from the toolbar's state (session-only routes). */
function viewBody(name: string, state: ViewState, isTableDefault: boolean, layout?: ViewLayout) {
  return {
    name,
    type: layout?.type ?? 'grid',
    config: layout && layout.type !== 'grid' ? layout.config : { columns: state.columns },
    filters: state.filters,
    order_by: state.orderBy,
    order_dir: state.orderBy ? state.orderDir : null,
    is_table_default: isTableDefault,
  };
}

export async function createView(tid: number, name: string, state: ViewState, isTableDefault: boolean, layout?: ViewLayout): Promise<SavedView> {
  return (await unwrap(api.POST('/api/table/{tid}/views/create', { params: { path: { tid } }, body: viewBody(name, state, isTableDefault, layout) as never }))) as unknown as SavedView;
}

/** Saves the toolbar's settings into a view; its layout (type and config) stays unless one is given. */
export async function updateView(tid: number, vid: number, name: string, state: ViewState, isTableDefault: boolean, layout?: ViewLayout): Promise<SavedView> {
  return (await unwrap(api.POST('/api/table/{tid}/view/{vid}/update', { params: { path: { tid, vid } }, body: viewBody(name, state, isTableDefault, layout) as never }))) as unknown as SavedView;
}

/** Changes only a view's layout config (its filters, sort and name stay as saved). */
export async function updateViewConfig(tid: number, vid: number, config: Record<string, unknown>): Promise<SavedView> {
  return (await unwrap(api.POST('/api/table/{tid}/view/{vid}/update', { params: { path: { tid, vid } }, body: { config } as never }))) as unknown as SavedView;
}

export async function setTableDefault(tid: number, vid: number, isTableDefault: boolean): Promise<SavedView> {
  return (await unwrap(api.POST('/api/table/{tid}/view/{vid}/update', { params: { path: { tid, vid } }, body: { is_table_default: isTableDefault } as never }))) as unknown as SavedView;
}

export async function deleteView(tid: number, vid: number): Promise<void> {
  await unwrap(api.POST('/api/table/{tid}/view/{vid}/delete', { params: { path: { tid, vid } } }));
}

/** Column widths of a table's view, kept in this browser (the API's grid config holds only the columns). */
export function storedWidths(tid: number, vid: number): Record<string, number> {
  try {
    return JSON.parse(localStorage.getItem(`tabula.widths.${tid}.${vid}`) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

export function storeWidths(tid: number, vid: number, widths: Record<string, number>): void {
  localStorage.setItem(`tabula.widths.${tid}.${vid}`, JSON.stringify(widths));
}
