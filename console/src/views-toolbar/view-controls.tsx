import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSpaceRole } from '../api/space-role';
import type { Table } from '../api/types';
import { FilterToolbar } from './filter-toolbar';
import { settingErrors, type useViewToolbar } from './use-view-toolbar';
import { ViewsBar } from './views-bar';
import './views-toolbar.css';

interface ViewControlsProps {
  table: Table;
  baseUrl: string;
  viewId: number;
  toolbar: ReturnType<typeof useViewToolbar>;
  /** The grid's query error (records/count): a bad filter or sort is shown on that setting. */
  queryError: unknown;
  /** Offer the grid's columns (order and hidden ones): a kanban, calendar or gallery has none. */
  showColumns: boolean;
}

/** The views bar and the filter toolbar above the grid; server errors land on the setting they name. */
export function ViewControls({ table, baseUrl, viewId, toolbar, queryError, showColumns }: ViewControlsProps) {
  const [saveError, setSaveError] = useState<unknown>(null);
  const { canManageViews } = useSpaceRole(table.space_id);
  const navigate = useNavigate();
  const fields = table.fields.filter((field) => field.hidden !== 'always');
  const views = toolbar.views.data ?? [];
  // The table's address opens its default view when an admin set one (`/view/0` is the Default view itself).
  const tableDefault = views.find((view) => view.is_table_default);
  const atTableAddress = viewId === 0 && !/\/view\/0$/.test(window.location.pathname);
  useEffect(() => {
    if (atTableAddress && tableDefault) navigate(`${baseUrl}/view/${tableDefault.id}`, { replace: true });
  }, [atTableAddress, tableDefault, baseUrl, navigate]);
  useEffect(() => setSaveError(null), [viewId]);

  const errors = settingErrors(saveError ?? queryError, toolbar.state, fields);
  return (
    <section className="view-controls" aria-label="View settings" aria-busy={toolbar.views.isPending || undefined}>
      {/* Disabled until the views are read: the view's saved settings then replace the toolbar's
          state, and a sort or filter chosen before would be lost without a word. */}
      <fieldset className="view-controls-fields" disabled={toolbar.views.isPending}>
        <ViewsBar tid={table.id} fields={fields} baseUrl={baseUrl} views={views} view={toolbar.view} state={toolbar.state} dirty={toolbar.dirty} canManage={canManageViews} nameError={errors.name} configError={errors.config} onError={setSaveError} />
        <FilterToolbar fields={fields} state={toolbar.state} onChange={toolbar.change} errors={errors} showColumns={showColumns} />
        {errors.other && (
          <p className="form-error" role="alert">
            {errors.other}
          </p>
        )}
      </fieldset>
    </section>
  );
}
