import { useState } from 'react';
import { useSpaceRole } from '../api/space-role';
import type { Field, Table, TableRecord } from '../api/types';
import { CellEditor } from '../grid/cell-editor';
import { displayValue, isEditable } from '../grid/cell-value';
import { useCellSave } from '../grid/use-cell-save';
import { Button } from '../ui/button';
import { RecordFiles } from './record-files';
import { useRecordChanged } from './record-api';

/** Every field of the record with its name as a label, each edited with the grid's own editors (those the signed-in user may write; the rest read-only). */
export function RecordFields({ table, record }: { table: Table; record: TableRecord }) {
  const changed = useRecordChanged(table.id, record.id);
  const { errors, pending, save } = useCellSave(table.id, (_row, updated) => changed(updated));
  const [editing, setEditing] = useState<string | null>(null);
  const access = useSpaceRole(table.space_id);
  const fields = table.fields.filter((field) => field.hidden !== 'always');
  return (
    <dl className="record-fields">
      {fields.map((field) => {
        const labelId = `record-${record.id}-label-${field.id}`;
        const key = `${record.id}:${field.id}`;
        const value = pending.has(key) ? pending.get(key) : record.data[field.id];
        const error = errors.get(key);
        return (
          <div key={field.id} className="record-field">
            <dt id={labelId}>{field.name}</dt>
            <dd>
              {field.type === 'file' ? (
                <RecordFiles tid={table.id} record={record} field={field} canWrite={access.canEditField(field)} />
              ) : field.type === 'checkbox' && isEditable(field, access) ? (
                <input type="checkbox" aria-labelledby={labelId} checked={!!value} onChange={(event) => void save(0, record, field, event.target.checked)} />
              ) : editing === field.id ? (
                <div className="record-editor">
                  <CellEditor
                    field={field}
                    spaceId={table.space_id}
                    value={record.data[field.id]}
                    label={field.name}
                    error={error}
                    onSave={async (text) => {
                      if (await save(0, record, field, text)) setEditing(null);
                    }}
                    onCancel={() => setEditing(null)}
                  />
                  <p className="field-hint">Enter saves, Esc cancels{field.type === 'longtext' ? ', Shift+Enter adds a line' : ''}.</p>
                </div>
              ) : isEditable(field, access) ? (
                <Button variant="quiet" className="record-value" onPress={() => setEditing(field.id)}>
                  {/* The name says what pressing does and still holds the visible value (WCAG 2.5.3). */}
                  <span className="visually-hidden">Edit {field.name}: </span>
                  <FieldValue field={field} value={value} />
                </Button>
              ) : (
                <span className="record-value-readonly">
                  <FieldValue field={field} value={value} />
                </span>
              )}
              {error && editing !== field.id && (
                <p className="field-error" role="alert">
                  {error}
                </p>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function FieldValue({ field, value }: { field: Field; value: unknown }) {
  const text = displayValue(field, value);
  return text ? <span className="record-value-text">{text}</span> : <span className="muted">empty</span>;
}
