import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { withRecord } from '../record/record-drawer';
import type { SpaceAccess } from '../api/space-access';
import { useSpaceRole } from '../api/space-role';
import type { Field, Table } from '../api/types';
import { CellEditor, type EditorExit } from './cell-editor';
import { GridHeader } from './grid-header';
import { inRange, rangeBetween } from './clipboard';
import { FileCell } from './picker-editors';
import { useGridClipboard } from './use-grid-clipboard';
import { displayValue, isEditable } from './cell-value';
import { visibleFields } from '../views-toolbar/view-state';
import { useRecordWindow } from './record-window';
import { useCellSave } from './use-cell-save';

export const rowHeight = 32;
const rowNumberWidth = 72;
const overscanRows = 8;

function columnWidth(field: Field): number {
  switch (field.type) {
    case 'checkbox':
      return 110;
    case 'number':
    case 'date':
    case 'time':
      return 140;
    case 'longtext':
      return 280;
    case 'datetime':
      return 220;
    default:
      return 200;
  }
}

export interface ActiveCell {
  row: number;
  column: number;
}

interface GridViewProps {
  table: Table;
  viewId: number;
  total: number;
  active: ActiveCell | null;
  onActiveChange(active: ActiveCell | null): void;
  /** Lets the page scroll the grid (to a new row, to the end). */
  scrollRef?: (scrollToRow: (row: number) => void) => void;
  /** The toolbar's query keys (filters, sort, search or view_id: views-toolbar/); without it, the view's id alone. */
  query?: Record<string, unknown>;
  /** Visible field ids in order ([] or none: all); widths in pixels by field id. */
  columns?: string[];
  widths?: Record<string, number>;
  /** A column resized at its header's edge (null: its automatic width again); without it, columns cannot be resized. */
  onColumnResize?(fieldId: string, width: number | null): void;
}

/**
 * The table's records as an ARIA grid, virtualised both ways with TanStack Virtual (DOM rows:
 * docs/decisions.md, "Console grid"): only the rows and columns in view exist, and only their
 * record pages are fetched.
 */
export function GridView({ table, viewId, total, active, onActiveChange, scrollRef, query, columns: shownColumns, widths: savedWidths, onColumnResize }: GridViewProps) {
  const fields = visibleFields(
    table.fields.filter((field) => field.hidden !== 'always'),
    shownColumns ?? [],
  );
  // The role comes from two cached queries (auth/me, members/list), once for the whole grid.
  const access = useSpaceRole(table.space_id);
  const canEdit = (field: Field | undefined) => !!field && isEditable(field, access);
  // A column whose edge is being dragged takes its new width at once; it is kept when the drag ends.
  const [resizing, setResizing] = useState<{ fieldId: string; width: number } | null>(null);
  const widths = resizing ? { ...savedWidths, [resizing.fieldId]: resizing.width } : savedWidths;
  const scroller = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  // The sticky header row and row-number column are the virtualisers' padding: item starts
  // include them, and scrolling to an item keeps it clear of them.
  const rows = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: overscanRows, paddingStart: rowHeight, scrollPaddingStart: rowHeight });
  const columns = useVirtualizer({
    horizontal: true,
    count: fields.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => widths?.[fields[index].id] ?? columnWidth(fields[index]),
    overscan: 2,
    paddingStart: rowNumberWidth,
    scrollPaddingStart: rowNumberWidth,
  });
  const virtualRows = rows.getVirtualItems();
  const virtualColumns = columns.getVirtualItems();
  const window = useRecordWindow(table.id, viewId, virtualRows[0]?.index ?? 0, virtualRows.at(-1)?.index ?? -1, total, query);
  const [editing, setEditing] = useState<{ row: number; column: number; typed?: string } | null>(null);
  const { errors, pending, save } = useCellSave(table.id, window.replaceRecord);
  // The range's other corner (shift+arrows, shift+click); null: the range is the active cell.
  const [anchor, setAnchor] = useState<ActiveCell | null>(null);
  const range = active ? rangeBetween(anchor ?? active, active) : null;
  const clipboard = useGridClipboard({ tid: table.id, fields, total, canWrite: access.canWriteRecords, canEdit, recordAt: window.recordAt, replaceRecord: window.replaceRecord, fetchRows: window.fetchRows });
  // Copy and paste reach the document (a focused grid is no editable context): served while the grid has the focus.
  const clipboardState = useRef({ range, editing: false, clipboard });
  clipboardState.current = { range, editing: false, clipboard };
  useEffect(() => {
    const onCopy = (event: ClipboardEvent) => {
      const { range: current, clipboard: actions } = clipboardState.current;
      if (document.activeElement !== grid.current || !current || !event.clipboardData) return;
      event.preventDefault();
      event.clipboardData.setData('text/plain', actions.copy(current));
    };
    const onPaste = (event: ClipboardEvent) => {
      const { range: current, clipboard: actions } = clipboardState.current;
      if (document.activeElement !== grid.current || !current || !event.clipboardData) return;
      event.preventDefault();
      void actions.paste(event.clipboardData.getData('text/plain'), { row: current.top, column: current.left });
    };
    document.addEventListener('copy', onCopy);
    document.addEventListener('paste', onPaste);
    return () => {
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('paste', onPaste);
    };
  }, []);

  const scrollToRow = useCallback((row: number) => rows.scrollToIndex(row, { align: 'auto' }), [rows]);
  useEffect(() => scrollRef?.(scrollToRow), [scrollRef, scrollToRow]);
  // Columns shown, their order or widths changed: the column virtualiser measures again.
  const columnsLayout = JSON.stringify([fields.map((field) => field.id), widths ?? {}]);
  useEffect(() => columns.measure(), [columns, columnsLayout]);

  const focusGrid = () => grid.current?.focus({ preventScroll: true });
  // A row opens as the record drawer over the grid (?record=<rid>, record/record-drawer.tsx).
  const [search, setSearch] = useSearchParams();
  const openRecord = (row: number) => {
    const record = window.recordAt(row);
    if (record) setSearch(new URLSearchParams(withRecord(search, record.id)));
  };
  const move = (row: number, column: number, extend = false) => {
    if (extend && active) setAnchor(anchor ?? active);
    else setAnchor(null);
    const next = { row: Math.max(0, Math.min(total - 1, row)), column: Math.max(0, Math.min(fields.length - 1, column)) };
    if (total === 0 || fields.length === 0) return;
    onActiveChange(next);
    rows.scrollToIndex(next.row, { align: 'auto' });
    columns.scrollToIndex(next.column, { align: 'auto' });
  };

  const startEditing = (row: number, column: number, typed?: string) => {
    const field = fields[column];
    const record = window.recordAt(row);
    if (!field || !record || !canEdit(field)) return;
    if (field.type === 'checkbox') {
      void save(row, record, field, !record.data[field.id]);
      return;
    }
    setEditing({ row, column, typed });
  };

  // The editor closes and the cursor moves at once (typing goes on in the next cell while the
  // save is under way); a refused value reopens its cell's editor with the server's error.
  const finishEditing = async (text: string | string[], exit: EditorExit) => {
    if (!editing) return;
    const { row, column } = editing;
    const record = window.recordAt(row);
    if (!record) return;
    setEditing(null);
    focusGrid();
    if (exit === 'enter') move(row + 1 < total ? row + 1 : row, column);
    else move(row, column + (exit === 'tab' ? 1 : -1));
    const saved = await save(row, record, fields[column], text);
    if (!saved) {
      move(row, column);
      setEditing({ row, column, typed: Array.isArray(text) ? text.join(', ') : text });
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing || !active) {
      if (!active && ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) {
        event.preventDefault();
        move(0, 0);
      }
      return;
    }
    const { row, column } = active;
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(row + 1, column, event.shiftKey),
      ArrowUp: () => move(row - 1, column, event.shiftKey),
      ArrowRight: () => move(row, column + 1, event.shiftKey),
      ArrowLeft: () => move(row, column - 1, event.shiftKey),
      PageDown: () => move(row + Math.floor((scroller.current?.clientHeight ?? 320) / rowHeight) - 1, column),
      PageUp: () => move(row - Math.floor((scroller.current?.clientHeight ?? 320) / rowHeight) + 1, column),
      Home: () => move(event.ctrlKey || event.metaKey ? 0 : row, 0),
      End: () => move(event.ctrlKey || event.metaKey ? total - 1 : row, fields.length - 1),
      Enter: () => (event.shiftKey ? openRecord(row) : startEditing(row, column)),
      F2: () => startEditing(row, column),
      ' ': () => (fields[column]?.type === 'checkbox' && canEdit(fields[column]) ? startEditing(row, column) : openRecord(row)),
      Tab: () => move(row, column + (event.shiftKey ? -1 : 1)),
      Escape: () => setAnchor(null),
    };
    const action = keys[event.key];
    const atEdge = event.key === 'Tab' && (event.shiftKey ? column === 0 : column === fields.length - 1);
    if (action && !atEdge) {
      event.preventDefault();
      action();
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && typesOver(fields[column], access)) {
      // Typing on a cell starts editing it with what was typed, as in a spreadsheet.
      event.preventDefault();
      startEditing(row, column, event.key);
    }
  };

  const cellId = (row: number, column: number) => `cell-${table.id}-${row}-${column}`;
  const activeRendered = active && virtualRows.some((item) => item.index === active.row) && virtualColumns.some((item) => item.index === active.column);
  const width = columns.getTotalSize();

  return (
    <div className="grid-scroller" ref={scroller}>
      <div
        ref={grid}
        role="grid"
        aria-label={table.name}
        aria-rowcount={total + 1}
        aria-colcount={fields.length + 1}
        aria-multiselectable
        aria-readonly={!access.canWriteRecords || undefined}
        aria-activedescendant={activeRendered && !editing ? cellId(active.row, active.column) : undefined}
        tabIndex={0}
        className="grid"
        style={{ width, height: rows.getTotalSize() }}
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          if (event.target === grid.current && !active && total > 0) onActiveChange({ row: 0, column: 0 });
        }}
      >
        <GridHeader fields={fields} columns={virtualColumns} width={width} rowNumberWidth={rowNumberWidth} onResize={onColumnResize} onResizing={setResizing} />
        <div role="rowgroup" className="grid-body">
          {virtualRows.map((item) => {
            const record = window.recordAt(item.index);
            return (
              <div
                key={item.index}
                role="row"
                aria-rowindex={item.index + 2}
                aria-busy={record ? undefined : true}
                className={`grid-row${active?.row === item.index ? ' grid-row-active' : ''}`}
                style={{ width, transform: `translateY(${item.start}px)` }}
              >
                <div role="gridcell" aria-colindex={1} className="grid-cell grid-row-number" style={{ width: rowNumberWidth }}>
                  {record ? (
                    <Link to={withRecord(search, record.id)} tabIndex={-1} aria-label={`Open record ${item.index + 1}`} title="Open record (Shift+Enter or Space)">
                      {item.index + 1}
                    </Link>
                  ) : (
                    item.index + 1
                  )}
                </div>
                {virtualColumns.map((column) => {
                  const field = fields[column.index];
                  const isActive = active?.row === item.index && active.column === column.index;
                  const isSelected = isActive || inRange(anchor ? range : null, item.index, column.index);
                  const isEditing = editing?.row === item.index && editing.column === column.index;
                  const error = record ? errors.get(`${record.id}:${field.id}`) : undefined;
                  return (
                    <div
                      key={field.id}
                      id={cellId(item.index, column.index)}
                      role="gridcell"
                      aria-colindex={column.index + 2}
                      aria-selected={isSelected}
                      aria-readonly={!canEdit(field) || undefined}
                      title={error}
                      className={`grid-cell grid-value grid-type-${field.type}${isActive ? ' grid-cell-active' : ''}${isSelected && !isActive ? ' grid-cell-in-range' : ''}${error ? ' grid-cell-error' : ''}`}
                      style={{ width: column.size, left: column.start }}
                      // Shift+click stretches the range: no text selection of the page meanwhile.
                      onMouseDown={(event) => event.shiftKey && event.preventDefault()}
                      onClick={(event) => {
                        if (event.shiftKey && active) setAnchor(anchor ?? active);
                        else setAnchor(null);
                        onActiveChange({ row: item.index, column: column.index });
                        focusGrid();
                      }}
                      onDoubleClick={() => startEditing(item.index, column.index)}
                    >
                      {isEditing && record ? (
                        <CellEditor
                          field={field}
                          spaceId={table.space_id}
                          value={record.data[field.id]}
                          typed={editing.typed}
                          label={`${field.name}, row ${item.index + 1}`}
                          error={error}
                          onSave={finishEditing}
                          onCancel={() => {
                            setEditing(null);
                            focusGrid();
                          }}
                        />
                      ) : record && field.type === 'file' ? (
                        <FileCell tid={table.id} rid={record.id} fieldId={field.id} value={record.data[field.id]} />
                      ) : record ? (
                        <CellText field={field} value={pending.has(`${record.id}:${field.id}`) ? pending.get(`${record.id}:${field.id}`) : record.data[field.id]} />
                      ) : (
                        <span className="cell-placeholder" aria-hidden="true" />
                      )}
                      {error && !isEditing && isActive && (
                        <div className="cell-error-bubble" role="alert">
                          {error}
                        </div>
                      )}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      {clipboard.busy && (
        <p className="grid-status" role="status">
          Pasting…
        </p>
      )}
      {clipboard.message && (
        <p className={clipboard.message.kind === 'error' ? 'grid-failure' : 'grid-status'} role={clipboard.message.kind === 'error' ? 'alert' : 'status'}>
          {clipboard.message.text}
        </p>
      )}
      {window.failed ? (
        <p className="grid-failure" role="alert">
          Could not load records: {window.failed.message}
        </p>
      ) : null}
    </div>
  );
}

function typesOver(field: Field | undefined, access: SpaceAccess): boolean {
  return !!field && isEditable(field, access) && !['checkbox', 'select', 'user', 'lookup', 'date', 'datetime', 'time'].includes(field.type);
}

function CellText({ field, value }: { field: Field; value: unknown }) {
  if (field.type === 'checkbox') {
    return (
      <span className={`checkbox-mark${value ? ' checkbox-on' : ''}`} aria-label={value ? 'Yes' : 'No'} role="img">
        {value ? '✓' : ''}
      </span>
    );
  }
  if (field.type === 'url' && typeof value === 'string') {
    return (
      <a href={value} target="_blank" rel="noreferrer noopener" tabIndex={-1}>
        {value}
      </a>
    );
  }
  return <span className="cell-text">{displayValue(field, value)}</span>;
}
