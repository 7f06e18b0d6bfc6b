import { useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { keys } from '../api/queries';
import type { Table } from '../api/types';
import { FormDialog } from '../ui/form-dialog';
import { TextInput } from '../ui/text-input';

/** Field types this dialog creates (user, lookup and file need pickers of their own: later). */
const fieldTypes: [string, string][] = [
  ['text', 'Text'],
  ['longtext', 'Long text'],
  ['number', 'Number'],
  ['checkbox', 'Checkbox'],
  ['email', 'E-mail'],
  ['url', 'URL'],
  ['select', 'Select'],
  ['date', 'Date'],
  ['datetime', 'Date and time'],
  ['time', 'Time'],
];

/** Adds a field to the table: name, type, and a select's options (comma-separated). */
export function AddFieldDialog({ table }: { table: Table }) {
  const queryClient = useQueryClient();
  const addField = async (form: FormData) => {
    const type = String(form.get('type'));
    const options = String(form.get('options') ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean)
      .map((value) => ({ value }));
    const field = { name: String(form.get('name')), type, ...(type === 'select' ? { options, multiple: form.get('multiple') === 'on' } : {}) };
    await unwrap(api.POST('/api/table/{tid}/fields/create', { params: { path: { tid: table.id } }, body: field as never }));
    await queryClient.invalidateQueries({ queryKey: keys.table(table.id) });
    await queryClient.invalidateQueries({ queryKey: keys.records(table.id) });
  };
  return (
    <FormDialog trigger="Add field" title="Add a field" submitLabel="Add field" onSubmit={addField} triggerVariant="secondary">
      <TextInput label="Name" name="name" isRequired autoFocus />
      <div className="field">
        <label className="field-label" htmlFor="new-field-type">
          Type
        </label>
        <select id="new-field-type" name="type" className="input" defaultValue="text">
          {fieldTypes.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <TextInput label="Options (select only, comma-separated)" name="options" />
      <label className="checkbox-field">
        <input type="checkbox" name="multiple" /> Several options per record (select only)
      </label>
    </FormDialog>
  );
}
