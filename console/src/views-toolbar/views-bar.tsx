import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Field } from '../api/types';
import { configBody, configErrorKey, configOfView, defaultConfig, layoutTypes, type LayoutConfig, type LayoutType } from '../layouts/layout-config';
import { LayoutConfigFields } from '../layouts/layout-config-fields';
import { LayoutSettingsDialog } from '../layouts/layout-settings-dialog';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { createView, deleteView, setTableDefault, storeWidths, updateView, viewsKey } from './views-api';
import type { SavedView, ViewState } from './view-state';

interface ViewsBarProps {
  tid: number;
  /** The table's fields a layout's settings may name. */
  fields: Field[];
  /** The table's address; a view's is `<base>/view/<vid>`. */
  baseUrl: string;
  views: SavedView[];
  view: SavedView | undefined;
  state: ViewState;
  dirty: boolean;
  /** May the signed-in user create, save and delete views (space admins)? Else the bar only switches views. */
  canManage: boolean;
  /** The server's refusal of the name, shown on the name input. */
  nameError?: string;
  /** The server's refusal of the new view's layout config (`Invalid config.<key>: …`), shown on that setting. */
  configError?: string;
  /** A refused save: the caller puts it on the setting it names. */
  onError(error: unknown): void;
}

export const viewUrl = (baseUrl: string, vid: number) => (vid ? `${baseUrl}/view/${vid}` : baseUrl);

/** Switch views; for admins, save the toolbar's settings as a new view or into the current one; rename, delete, set the table default. */
export function ViewsBar({ tid, fields, baseUrl, views, view, state, dirty, canManage, nameError, configError, onError }: ViewsBarProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [asDefault, setAsDefault] = useState(false);
  // "Save as new view" starts from the current view's layout and its config: a copy of a kanban is a kanban.
  const currentLayout = layoutTypes.find((option) => option.type === view?.type)?.type ?? 'grid';
  const [layout, setLayout] = useState<LayoutType>(currentLayout);
  const [config, setConfig] = useState<LayoutConfig>(() => configOfView(currentLayout, view?.config));
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const saved = view && view.id !== 0 ? view : undefined;
  const layoutVersion = JSON.stringify([view?.id, currentLayout, view?.config ?? null]);
  // What the person chose in the form stays while the view they chose it on is shown: a view
  // that arrives (the views list answering after they picked a layout) or is refreshed must not
  // undo it. Another view, or a save, starts the form again from the view shown.
  const edited = useRef(false);
  const formView = useRef(view?.id);
  useEffect(() => {
    const otherView = formView.current !== undefined && formView.current !== view?.id;
    formView.current = view?.id;
    if (edited.current && !otherView) return;
    edited.current = false;
    setLayout(currentLayout);
    setConfig(configOfView(currentLayout, view?.config));
  }, [layoutVersion]);

  const run = async (action: () => Promise<number | null>) => {
    setSaving(true);
    onError(null);
    try {
      const vid = await action();
      await queryClient.invalidateQueries({ queryKey: viewsKey(tid) });
      if (vid !== null) navigate(viewUrl(baseUrl, vid));
    } catch (error) {
      onError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="views-bar" role="toolbar" aria-label="Views">
      <label className="view-control">
        <span>View</span>
        <select className="input" aria-label="View" value={view?.id ?? 0} onChange={(event) => navigate(`${baseUrl}/view/${event.target.value}`)}>
          {(views.length ? views : [{ id: 0, name: 'Default view', is_table_default: false }]).map((option) => (
            <option key={option.id} value={option.id}>
              {option.id === 0 ? 'Default view' : option.name}
              {option.is_table_default ? ' (table default)' : ''}
            </option>
          ))}
        </select>
      </label>
      {canManage && (
        <>
          {dirty && <span className="view-dirty">Unsaved changes</span>}
          {saved && (
            <Button isDisabled={!dirty || saving} onPress={() => run(async () => (await updateView(tid, saved.id, saved.name, state, saved.is_table_default, { type: saved.type, config: saved.config ?? {} }), null))}>
              Save view
            </Button>
          )}
          <form
            className="view-save-as"
            onSubmit={(event) => {
              event.preventDefault();
              void run(async () => {
                const created = await createView(tid, name, state, asDefault, { type: layout, config: configBody(config) });
                // The new view keeps the column widths it was saved with (they live in this browser).
                storeWidths(tid, created.id, state.widths);
                setName('');
                setAsDefault(false);
                edited.current = false;
                return created.id;
              });
            }}
          >
            <label className="view-control">
              <span>New view name</span>
              <input className="input" aria-label="New view name" value={name} aria-invalid={!!nameError || undefined} aria-describedby={nameError ? 'view-name-error' : undefined} onChange={(event) => setName(event.target.value)} placeholder="e.g. Open deals" />
              {nameError && (
                <span id="view-name-error" className="form-error" role="alert">
                  {nameError}
                </span>
              )}
            </label>
            <LayoutConfigFields
              idPrefix="new-view"
              fields={fields}
              type={layout}
              config={config}
              onTypeChange={(type) => {
                edited.current = true;
                setLayout(type);
                setConfig(defaultConfig(type, fields));
              }}
              onConfigChange={(next) => {
                edited.current = true;
                setConfig(next);
              }}
              error={configError ? { key: configErrorKey(configError) ?? 'type', message: configError } : null}
            />
            <label className="checkbox-field">
              <input type="checkbox" checked={asDefault} onChange={(event) => setAsDefault(event.target.checked)} />
              Table default
            </label>
            <Button type="submit" variant="primary" isDisabled={saving}>
              Save as new view
            </Button>
          </form>
          {saved && (
            <>
              <Button isDisabled={saving} onPress={() => run(async () => (await setTableDefault(tid, saved.id, !saved.is_table_default), null))}>
                {saved.is_table_default ? 'Unset table default' : 'Make table default'}
              </Button>
              {saved.type !== 'grid' && <LayoutSettingsDialog tid={tid} fields={fields} view={saved} />}
              <Button variant="secondary" isDisabled={saving} onPress={() => setConfirmDelete(true)}>
                Delete view
              </Button>
              <ConfirmDialog
                isOpen={confirmDelete}
                title="Delete this view?"
                message={`The view ${saved.name} will be deleted; its records stay.`}
                confirmLabel="Delete view"
                onConfirm={() => {
                  setConfirmDelete(false);
                  void run(async () => (await deleteView(tid, saved.id), 0));
                }}
                onCancel={() => setConfirmDelete(false)}
              />
            </>
          )}
        </>
      )}
    </div>
  );
}
