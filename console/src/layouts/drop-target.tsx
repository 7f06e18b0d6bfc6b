import type { ReactNode } from 'react';
import { DropZone, type DropZoneProps } from 'react-aria-components';

/**
 * A layout's drop target (a kanban lane, a calendar day), or a plain box for a user who may drop
 * nothing there: a reader is offered no drop zone to find with a screen reader or the pointer.
 */
export function DropTarget({ droppable, children, ...props }: DropZoneProps & { droppable: boolean; className: string; children: ReactNode }) {
  return droppable ? <DropZone {...props}>{children}</DropZone> : <div className={props.className}>{children}</div>;
}
