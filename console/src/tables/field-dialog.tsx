import { useState, type FormEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ApiError } from '../api/client';
import type { Field, TableSummary } from '../api/types';
import { Button } from '../ui/button';

export const fieldTypeLabels: Record<Field['type'], string> = {
  text: 'Text',
  longtext: 'Long text',
  number: 'Number',
  checkbox: 'Checkbox',
  email: 'E-mail',
  url: 'URL',
  select: 'Select',
  user: 'User',
  lookup: 'Lookup',
  date: 'Date',
  datetime: 'Date and time',
  time: 'Time',
  file: 'File',
};
const multipleTypes = new Set(['select', 'user', 'lookup']);

interface FieldDialogProps {
  /** The field edited; none: a new field. */
  field?: Field;
  /** Tables a lookup may point at. */
  tables: TableSummary[];
  onSave(definition: Record<string, unknown>): Promise<void>;
  onClose(): void;
}

/**
 * A field's definition, every type with its own settings (docs/api.md, "Field definition").
 * Editing sends only what may change: type, multiple and a lookup's table are fixed once made.
 */
export function FieldDialog({ field, tables, onSave, onClose }: FieldDialogProps) {
  const [type, setType] = useState<Field['type']>(field?.type ?? 'text');
  const [options, setOptions] = useState<{ value: string; color: string }[]>((field?.options ?? []).map((option) => ({ value: option.value, color: option.color ?? '' })));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editing = !!field;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const definition: Record<string, unknown> = {
      name: String(form.get('name') ?? ''),
      required: form.get('required') === 'on',
      editable_by: String(form.get('editable_by')),
      hidden: form.get('hidden') === 'on' ? 'always' : null,
    };
    if (!editing) {
      definition.type = type;
      if (multipleTypes.has(type)) definition.multiple = form.get('multiple') === 'on';
      if (type === 'lookup') definition.table_id = Number(form.get('table_id'));
    }
    if (type === 'select') definition.options = options.filter((option) => option.value.trim()).map((option) => (option.color.trim() ? { value: option.value.trim(), color: option.color.trim() } : { value: option.value.trim() }));
    if (type === 'number') definition.decimals = form.get('decimals') === '' ? null : Number(form.get('decimals'));
    if (type === 'file') definition.image_only = form.get('image_only') === 'on';
    setBusy(true);
    setError(null);
    try {
      await onSave(definition);
      onClose();
    } catch (caught) {
      setError(caught instanceof ApiError || caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ModalOverlay className="modal-overlay" isOpen onOpenChange={(open) => !open && onClose()} isDismissable>
      <Modal className="modal">
        <Dialog className="dialog">
          <form onSubmit={submit} noValidate>
            <Heading slot="title" className="dialog-title">
              {editing ? `Edit field ${field.name}` : 'Add a field'}
            </Heading>
            <div className="dialog-body">
              <div className="field">
                <label className="field-label" htmlFor="field-name">
                  Name
                </label>
                <input id="field-name" name="name" className="input" defaultValue={field?.name ?? ''} required autoFocus />
              </div>
              <div className="field">
                <label className="field-label" htmlFor="field-type">
                  Type
                </label>
                <select id="field-type" className="input" value={type} disabled={editing} onChange={(event) => setType(event.target.value as Field['type'])}>
                  {Object.entries(fieldTypeLabels).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              {multipleTypes.has(type) && (
                <label className="checkbox-field">
                  <input type="checkbox" name="multiple" defaultChecked={field?.multiple} disabled={editing} /> Several values per record
                </label>
              )}
              {type === 'lookup' && (
                <div className="field">
                  <label className="field-label" htmlFor="field-table">
                    Target table
                  </label>
                  <select id="field-table" name="table_id" className="input" defaultValue={field?.table_id} disabled={editing}>
                    {tables.map((table) => (
                      <option key={table.id} value={table.id}>
                        {table.name}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              {type === 'number' && (
                <div className="field">
                  <label className="field-label" htmlFor="field-decimals">
                    Decimals (empty: as given)
                  </label>
                  <input id="field-decimals" name="decimals" className="input" type="number" min={0} max={10} defaultValue={field?.decimals ?? ''} />
                </div>
              )}
              {type === 'file' && (
                <label className="checkbox-field">
                  <input type="checkbox" name="image_only" defaultChecked={(field as { image_only?: boolean } | undefined)?.image_only} /> Images only
                </label>
              )}
              {type === 'select' && (
                <fieldset className="field">
                  <legend className="field-label">Options</legend>
                  {options.map((option, index) => (
                    <div className="settings-row" key={index}>
                      <input
                        className="input"
                        aria-label={`Option ${index + 1}`}
                        value={option.value}
                        onChange={(event) => setOptions(options.map((item, at) => (at === index ? { ...item, value: event.target.value } : item)))}
                      />
                      <input
                        className="input"
                        aria-label={`Option ${index + 1} colour`}
                        placeholder="colour (#2b59c3)"
                        value={option.color}
                        onChange={(event) => setOptions(options.map((item, at) => (at === index ? { ...item, color: event.target.value } : item)))}
                      />
                      <Button variant="quiet" onPress={() => setOptions(options.filter((_, at) => at !== index))} aria-label={`Remove option ${index + 1}`}>
                        Remove
                      </Button>
                    </div>
                  ))}
                  <Button variant="secondary" onPress={() => setOptions([...options, { value: '', color: '' }])}>
                    Add option
                  </Button>
                </fieldset>
              )}
              <label className="checkbox-field">
                <input type="checkbox" name="required" defaultChecked={field?.required} /> Required
              </label>
              <div className="field">
                <label className="field-label" htmlFor="field-editable-by">
                  Editable by
                </label>
                <select id="field-editable-by" name="editable_by" className="input" defaultValue={field?.editable_by ?? 'members'}>
                  <option value="members">Members</option>
                  <option value="admins">Admins</option>
                  <option value="none">Nobody (read-only)</option>
                </select>
              </div>
              <label className="checkbox-field">
                <input type="checkbox" name="hidden" defaultChecked={field?.hidden === 'always'} /> Hidden in the grid
              </label>
            </div>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <div className="dialog-actions">
              <Button onPress={onClose}>Cancel</Button>
              <Button type="submit" variant="primary" isDisabled={busy}>
                {editing ? 'Save field' : 'Add field'}
              </Button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
