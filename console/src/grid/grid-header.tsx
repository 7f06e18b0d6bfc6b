import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Field } from '../api/types';
import './grid-header.css';

/** Column widths a person can set, by dragging or with the keyboard (pixels). */
export const minColumnWidth = 60;
export const maxColumnWidth = 800;
/** An arrow key moves a column's edge this far; with Shift, five times as far. */
const keyStep = 10;

const clampWidth = (width: number) => Math.round(Math.max(minColumnWidth, Math.min(maxColumnWidth, width)));

interface HeaderColumn {
  index: number;
  start: number;
  size: number;
}

interface GridHeaderProps {
  fields: Field[];
  columns: HeaderColumn[];
  width: number;
  rowNumberWidth: number;
  /** A column's new width (pixels), once a drag ends or a key sets it; null: back to its automatic width. */
  onResize?(fieldId: string, width: number | null): void;
  /** While a column's edge is dragged: its width so far, drawn at once (null when the drag ends). */
  onResizing?(resizing: { fieldId: string; width: number } | null): void;
}

/** The grid's sticky header row: a column header per visible field, each with an edge that resizes it. */
export function GridHeader({ fields, columns, width, rowNumberWidth, onResize, onResizing }: GridHeaderProps) {
  return (
    <div role="rowgroup" className="grid-head">
      <div role="row" aria-rowindex={1} className="grid-row grid-header-row" style={{ width }}>
        <div role="columnheader" aria-colindex={1} className="grid-cell grid-corner" style={{ width: rowNumberWidth }}>
          #
        </div>
        {columns.map((column) => {
          const field = fields[column.index];
          return (
            <div key={field.id} role="columnheader" aria-colindex={column.index + 2} title={`${field.name} (${field.type})`} className="grid-cell grid-column-header" style={{ width: column.size, left: column.start }}>
              <span className="column-name">{field.name}</span>
              {column.size >= 160 && <span className="column-type">{field.type}</span>}
              {onResize && <ResizeEdge field={field} width={column.size} onResize={onResize} onResizing={onResizing} />}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * A column's right edge as a focusable separator (the ARIA splitter pattern): dragged with the
 * pointer, or focused and moved with the arrow keys (Shift: further); Home gives the column its
 * automatic width back. The grid's own keys do not see these.
 */
function ResizeEdge({ field, width, onResize, onResizing }: { field: Field; width: number; onResize(fieldId: string, width: number | null): void; onResizing?: GridHeaderProps['onResizing'] }) {
  const drag = useRef<{ startX: number; startWidth: number; width: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: width, width };
    setDragging(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    drag.current.width = clampWidth(drag.current.startWidth + event.clientX - drag.current.startX);
    onResizing?.({ fieldId: field.id, width: drag.current.width });
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    const { width: finalWidth, startWidth } = drag.current;
    drag.current = null;
    setDragging(false);
    onResizing?.(null);
    if (finalWidth !== startWidth) onResize(field.id, finalWidth);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? keyStep * 5 : keyStep;
    const next: Record<string, () => void> = {
      ArrowLeft: () => onResize(field.id, clampWidth(width - step)),
      ArrowRight: () => onResize(field.id, clampWidth(width + step)),
      Home: () => onResize(field.id, null),
    };
    if (!next[event.key]) return;
    event.preventDefault();
    event.stopPropagation();
    next[event.key]();
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${field.name}`}
      aria-valuenow={width}
      aria-valuemin={minColumnWidth}
      aria-valuemax={maxColumnWidth}
      aria-valuetext={`${width} pixels`}
      tabIndex={0}
      className={`column-resize${dragging ? ' column-resize-dragging' : ''}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={onKeyDown}
    />
  );
}
