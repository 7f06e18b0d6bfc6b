import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { keys, useSpace, useTable, useTables } from '../api/queries';
import { useSpaceRole } from '../api/space-role';
import type { Field, Table } from '../api/types';
import { Breadcrumbs } from '../layout/breadcrumbs';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DataTable } from '../ui/data-table';
import { ErrorState, LoadingState } from '../ui/states';
import { FieldDialog, fieldTypeLabels } from './field-dialog';

interface TableIndex {
  name: string;
  fields: string[];
  direction: 'asc' | 'desc' | null;
  origin: string;
  reason?: string | null;
}

const message = (error: unknown) => (error instanceof ApiError || error instanceof Error ? error.message : String(error));

/**
 * A table's settings: its name and title field, its fields (add, edit, delete), its indexes with
 * their origin, and deleting it. The table page links here for space admins only; anyone else
 * arriving by its address reads the fields and indexes, with nothing to change.
 */
export function TableSettingsPage() {
  const params = useParams();
  const sid = Number(params.sid);
  const tid = Number(params.tid);
  const space = useSpace(sid);
  const table = useTable(tid);
  const tables = useTables(sid);
  const { canManageTables, isPending: roleUnknown } = useSpaceRole(sid);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [fieldDialog, setFieldDialog] = useState<{ field?: Field } | null>(null);
  const [deletingField, setDeletingField] = useState<Field | null>(null);
  const [deletingTable, setDeletingTable] = useState(false);

  if (table.isError) return <ErrorState error={table.error} />;
  if (table.isPending) return <LoadingState label="Loading table" />;
  const current = table.data;
  const tableUrl = `/space/${sid}/table/${tid}`;

  /** Every field route answers the table object: it goes straight into the cache. */
  const applied = async (call: Promise<unknown>, done: string) => {
    setError(null);
    setSaved(null);
    const updated = (await call) as Table;
    queryClient.setQueryData(keys.table(tid), updated);
    void queryClient.invalidateQueries({ queryKey: keys.records(tid) });
    void queryClient.invalidateQueries({ queryKey: keys.tables(sid) });
    setSaved(done);
  };

  const saveTable = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const titleField = String(form.get('title_field'));
    try {
      await applied(unwrap(api.POST('/api/table/{tid}/update', { params: { path: { tid } }, body: { name: String(form.get('name')), title_field: titleField === '' ? null : titleField } })), 'Table saved');
    } catch (caught) {
      setError(message(caught));
    }
  };
  const saveField = (field: Field | undefined) => async (definition: Record<string, unknown>) => {
    if (field) await applied(unwrap(api.POST('/api/table/{tid}/field/{slug}/update', { params: { path: { tid, slug: field.id } }, body: definition as never })), `Field ${String(definition.name)} saved`);
    else await applied(unwrap(api.POST('/api/table/{tid}/fields/create', { params: { path: { tid } }, body: definition as never })), `Field ${String(definition.name)} added`);
  };
  const deleteField = async (field: Field) => {
    try {
      await applied(unwrap(api.POST('/api/table/{tid}/field/{slug}/delete', { params: { path: { tid, slug: field.id } } })), `Field ${field.name} deleted`);
    } catch (caught) {
      setError(message(caught));
    }
  };
  const indexes = ((current as unknown as { indexes?: TableIndex[] }).indexes ?? []) as TableIndex[];
  const fieldName = (slug: string) => current.fields.find((field) => field.id === slug)?.name ?? slug;

  return (
    <main className="page page-table-settings">
      <Breadcrumbs items={[{ label: 'Spaces', to: '/' }, { label: space.data?.name ?? '…', to: `/space/${sid}` }, { label: current.name, to: tableUrl }, { label: 'Settings' }]} />
      <div className="page-header">
        <h1>{current.name}: settings</h1>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {saved && (
        <p className="form-saved" role="status">
          {saved}
        </p>
      )}

      {!canManageTables && !roleUnknown && <p className="muted">Only the space&apos;s admins change a table&apos;s name, title field and fields.</p>}
      {canManageTables && (
        <section className="settings-section" aria-labelledby="settings-table">
          <h2 id="settings-table">Table</h2>
          <form className="settings-row" onSubmit={saveTable} key={`${current.name}:${current.title_field ?? ''}`}>
            <div className="field">
              <label className="field-label" htmlFor="table-name">
                Table name
              </label>
              <input id="table-name" name="name" className="input" defaultValue={current.name} />
            </div>
            <div className="field">
              <label className="field-label" htmlFor="table-title-field">
                Title field
              </label>
              <select id="table-title-field" name="title_field" className="input" defaultValue={current.title_field ?? ''}>
                <option value="">(default: the first text field)</option>
                {current.fields.map((field) => (
                  <option key={field.id} value={field.id}>
                    {field.name}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" variant="primary">
              Save table
            </Button>
          </form>
        </section>
      )}

      <section className="settings-section" aria-labelledby="settings-fields">
        <h2 id="settings-fields">Fields</h2>
        <DataTable className="settings-table" columns={canManageTables ? ['Name', 'Slug', 'Type', 'Settings', 'Actions'] : ['Name', 'Slug', 'Type', 'Settings']}>
          {current.fields.map((field) => (
            <tr key={field.id}>
              <td>{field.name}</td>
              <td>
                <code>{field.id}</code>
              </td>
              <td>{fieldTypeLabels[field.type] ?? field.type}</td>
              <td>{describeField(field, tables.data?.find((item) => item.id === field.table_id)?.name)}</td>
              {canManageTables && (
                <td>
                  <Button variant="quiet" aria-label={`Edit field ${field.name}`} onPress={() => setFieldDialog({ field })}>
                    Edit
                  </Button>
                  <Button variant="quiet" aria-label={`Delete field ${field.name}`} onPress={() => setDeletingField(field)}>
                    Delete
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </DataTable>
        {canManageTables && (
          <p>
            <Button variant="secondary" onPress={() => setFieldDialog({})}>
              Add field
            </Button>
          </p>
        )}
      </section>

      <section className="settings-section" aria-labelledby="settings-indexes">
        <h2 id="settings-indexes">Indexes</h2>
        {indexes.length === 0 ? (
          <p>No indexes yet: Tabula makes them as views and repeated queries ask for them.</p>
        ) : (
          <DataTable className="settings-table" columns={['Name', 'Fields', 'Origin', 'Reason']}>
            {indexes.map((index) => (
              <tr key={index.name}>
                <td>
                  <code>{index.name}</code>
                </td>
                <td>
                  {index.fields.map(fieldName).join(', ')}
                  {index.direction ? ` (${index.direction})` : ''}
                </td>
                <td>{index.origin}</td>
                <td>{index.reason ?? ''}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>

      {canManageTables && (
        <section className="settings-section" aria-labelledby="settings-danger">
          <h2 id="settings-danger">Delete this table</h2>
          <p>The table and all its records are deleted; lookups of other tables to it read as empty.</p>
          <Button variant="danger" onPress={() => setDeletingTable(true)}>
            Delete table
          </Button>
        </section>
      )}

      {fieldDialog && <FieldDialog field={fieldDialog.field} tables={tables.data ?? []} onSave={saveField(fieldDialog.field)} onClose={() => setFieldDialog(null)} />}
      <ConfirmDialog
        isOpen={!!deletingField}
        title={`Delete the field ${deletingField?.name ?? ''}?`}
        message="The field and its values in every record are deleted."
        confirmLabel="Delete field"
        onConfirm={() => {
          const field = deletingField;
          setDeletingField(null);
          if (field) void deleteField(field);
        }}
        onCancel={() => setDeletingField(null)}
      />
      {deletingTable && (
        <DeleteTableDialog
          name={current.name}
          onCancel={() => setDeletingTable(false)}
          onDelete={async () => {
            await unwrap(api.POST('/api/table/{tid}/delete', { params: { path: { tid } } }));
            queryClient.removeQueries({ queryKey: keys.table(tid) });
            await queryClient.invalidateQueries({ queryKey: keys.tables(sid) });
            void navigate(`/space/${sid}`);
          }}
        />
      )}
    </main>
  );
}

function describeField(field: Field, targetName: string | undefined): string {
  const parts: string[] = [];
  if (field.multiple) parts.push('several values');
  if (field.type === 'select') parts.push(`options: ${(field.options ?? []).map((option) => (option.color ? `${option.value} (${option.color})` : option.value)).join(', ') || 'none'}`);
  if (field.type === 'lookup') parts.push(`of ${targetName ?? `table ${field.table_id}`}`);
  if (field.type === 'number' && field.decimals !== null && field.decimals !== undefined) parts.push(`${field.decimals} decimals`);
  if (field.required) parts.push('required');
  if (field.editable_by !== 'members') parts.push(field.editable_by === 'none' ? 'read-only' : 'editable by admins');
  if (field.hidden === 'always') parts.push('hidden');
  return parts.join('; ');
}

/** Deleting a table asks for its name typed out: it takes every record with it. */
function DeleteTableDialog({ name, onCancel, onDelete }: { name: string; onCancel(): void; onDelete(): Promise<void> }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <ModalOverlay className="modal-overlay" isOpen onOpenChange={(open) => !open && onCancel()} isDismissable>
      <Modal className="modal">
        <Dialog className="dialog" role="alertdialog">
          <Heading slot="title" className="dialog-title">
            Delete the table {name}?
          </Heading>
          <div className="dialog-body">
            <p>Every record of it is deleted. Type the table's name to confirm.</p>
            <div className="field">
              <label className="field-label" htmlFor="confirm-table-name">
                Table name
              </label>
              <input id="confirm-table-name" className="input" value={typed} onChange={(event) => setTyped(event.target.value)} autoFocus />
            </div>
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <Button onPress={onCancel}>Cancel</Button>
            <Button variant="danger" isDisabled={typed !== name} onPress={() => onDelete().catch((caught: unknown) => setError(message(caught)))}>
              Delete table
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
