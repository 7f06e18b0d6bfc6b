import type { Table } from '../api/types';
import type { SavedView } from '../views-toolbar/view-state';
import { CalendarView } from './calendar/calendar-view';
import { GalleryView } from './gallery/gallery-view';
import { KanbanView } from './kanban/kanban-view';
import './layouts.css';

/** Is this view shown by one of the layouts here (rather than the grid)? */
export const isLayoutView = (view: SavedView | undefined): view is SavedView => !!view && (view.type === 'kanban' || view.type === 'calendar' || view.type === 'gallery');

/** A kanban, calendar or gallery view, queried with the toolbar's body (the view, its filters, the search). */
export function LayoutView({ table, view, body }: { table: Table; view: SavedView; body: Record<string, unknown> }) {
  switch (view.type) {
    case 'kanban':
      return <KanbanView key={view.id} table={table} view={view} body={body} />;
    case 'calendar':
      return <CalendarView key={view.id} table={table} view={view} body={body} />;
    default:
      return <GalleryView key={view.id} table={table} view={view} body={body} />;
  }
}
