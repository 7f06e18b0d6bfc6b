import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { countKey, keys, useRecordCount, useSpace, useTable } from '../api/queries';
import { useSpaceRole } from '../api/space-role';
import { GridView, type ActiveCell } from '../grid/grid-view';
import { cachedRecordAt, putCreatedRecord } from '../grid/record-spans';
import { usePrefetchFirstRows } from '../grid/record-window';
import type { TableRecord } from '../api/types';
import { ExportButton } from '../import-export/export-button';
import { ImportDialog } from '../import-export/import-dialog';
import { Breadcrumbs } from '../layout/breadcrumbs';
import { isLayoutView, LayoutView } from '../layouts/layout-view';
import { useLiveTable } from '../live/use-live-table';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ErrorState, LoadingState } from '../ui/states';
import { useViewToolbar } from '../views-toolbar/use-view-toolbar';
import { ViewControls } from '../views-toolbar/view-controls';
import { AddFieldDialog } from './add-field-dialog';

const recordsLabel = (count: number) => `${count.toLocaleString('en')} ${count === 1 ? 'record' : 'records'}`;

/** A table (or one of its views, /view/<vid>) as a grid, kanban, calendar or gallery, with its total and the row and table actions the signed-in user's role allows. */
export function TablePage() {
  const params = useParams();
  const sid = Number(params.sid);
  const tid = Number(params.tid);
  const viewId = Number(params.vid ?? 0);
  const space = useSpace(sid);
  const table = useTable(tid);
  const access = useSpaceRole(sid);
  useLiveTable(tid);
  const toolbar = useViewToolbar(tid, viewId);
  const count = useRecordCount(tid, toolbar.queryBody);
  // A grid's first rows are asked for beside the count (a layout view asks for its own), once the
  // views are read: the view (the table's default one too) settles the query and the layout, and
  // rows asked for under the query before it would be asked for again.
  // The grid's own controls (add and delete a row, columns) show once the view is known to be a grid.
  const isGrid = !isLayoutView(toolbar.view) && !toolbar.views.isPending;
  usePrefetchFirstRows(tid, viewId, toolbar.queryBody, toolbar.queryKeyPart, isGrid);
  const queryClient = useQueryClient();
  const [active, setActive] = useState<ActiveCell | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const scrollToRow = useRef<(row: number) => void>(() => undefined);
  const registerScroll = useCallback((scroll: (row: number) => void) => {
    scrollToRow.current = scroll;
  }, []);

  if (table.isError) return <ErrorState error={table.error} />;
  if (table.isPending) return <LoadingState label="Loading table" />;
  const total = count.data?.count ?? 0;

  const refreshRecords = () => queryClient.invalidateQueries({ queryKey: keys.records(tid) });
  const addRow = async () => {
    setActionError(null);
    try {
      const created = (await unwrap(api.POST('/api/table/{tid}/records/create', { params: { path: { tid } }, body: { data: {} } }))) as TableRecord;
      // The new record is last in id order: put it in its row at once, then count again.
      const row = total;
      putCreatedRecord(queryClient, tid, viewId, toolbar.queryKeyPart, row, created);
      queryClient.setQueryData(countKey(tid, toolbar.queryBody), { ...count.data!, count: total + 1, total: (count.data?.total ?? total) + 1 });
      setActive({ row, column: 0 });
      requestAnimationFrame(() => scrollToRow.current(row));
      void queryClient.invalidateQueries({ queryKey: keys.count(tid) });
    } catch (error) {
      setActionError(error instanceof ApiError ? error.message : String(error));
    }
  };
  const activeRecord = active ? cachedRecordAt(queryClient, tid, viewId, toolbar.queryKeyPart, active.row) : undefined;
  const deleteRow = async () => {
    if (!activeRecord) return;
    setActionError(null);
    try {
      await unwrap(api.POST('/api/table/{tid}/record/{rid}/delete', { params: { path: { tid, rid: activeRecord.id } } }));
      setActive(active && active.row >= total - 1 ? (total > 1 ? { ...active, row: total - 2 } : null) : active);
      await refreshRecords();
    } catch (error) {
      setActionError(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <main className="page page-table">
      <Breadcrumbs items={[{ label: 'Spaces', to: '/' }, { label: space.data?.name ?? '…', to: `/space/${sid}` }, { label: table.data.name }]} />
      <div className="page-header">
        <h1>{table.data.name}</h1>
        <p className="record-total" aria-live="polite">
          {count.isPending ? 'Counting…' : count.isError ? 'Count unavailable' : recordsLabel(total)}
        </p>
        <div className="toolbar" role="toolbar" aria-label="Records">
          {isGrid && access.canWriteRecords && (
            <>
              <Button variant="primary" onPress={addRow}>
                Add row
              </Button>
              <Button variant="secondary" isDisabled={!activeRecord} onPress={() => setConfirmDelete(true)}>
                Delete row
              </Button>
            </>
          )}
          {access.canManageTables && <AddFieldDialog table={table.data} />}
          {access.canWriteRecords && <ImportDialog table={table.data} access={access} />}
          <ExportButton tid={tid} query={toolbar.queryBody} columns={toolbar.state.columns} />
          {access.canManageTables && (
            <Link className="button button-quiet" to={`/space/${sid}/table/${tid}/settings`}>
              Table settings
            </Link>
          )}
          <Link className="button button-quiet" to={`/space/${sid}/table/${tid}/trash`}>
            Trash
          </Link>
        </div>
      </div>
      <ViewControls table={table.data} baseUrl={`/space/${sid}/table/${tid}`} viewId={viewId} toolbar={toolbar} queryError={count.error} showColumns={isGrid} />
      {actionError && (
        <p className="form-error" role="alert">
          {actionError}
        </p>
      )}
      <ConfirmDialog
        isOpen={confirmDelete}
        title="Delete this row?"
        message={activeRecord ? `Record ${activeRecord.title ?? `#${activeRecord.id}`} will be deleted.` : ''}
        confirmLabel="Delete row"
        onConfirm={() => {
          setConfirmDelete(false);
          void deleteRow();
        }}
        onCancel={() => setConfirmDelete(false)}
      />
      {toolbar.views.isPending ? (
        <LoadingState label="Loading view" />
      ) : isLayoutView(toolbar.view) ? (
        // A layout counts what it shows itself (per lane, per range): it does not wait for the table's count.
        <LayoutView table={table.data} view={toolbar.view} body={toolbar.queryBody} />
      ) : count.isPending ? (
        <LoadingState label="Counting records" />
      ) : (
        <GridView table={table.data} viewId={viewId} total={total} active={active} onActiveChange={setActive} scrollRef={registerScroll} query={toolbar.queryBody} columns={toolbar.state.columns} widths={toolbar.state.widths} onColumnResize={toolbar.resizeColumn} />
      )}
    </main>
  );
}
