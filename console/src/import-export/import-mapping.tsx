import type { Field } from '../api/types';
import { CellRefused, convertCell, importableFields, type ColumnTarget, type ImportAccess } from './csv-cells';
import type { ParsedCsv } from './parse-csv';

/** Rows shown in the preview. */
export const previewRows = 5;

/** The field a column's target stands for (a new field reads as text), or null when the column is ignored. */
export function fieldOfTarget(target: ColumnTarget, column: string, fields: Field[]): Field | null {
  if (target.kind === 'ignore') return null;
  if (target.kind === 'new') return { id: column, name: column, type: 'text', multiple: false, required: false, editable_by: 'members', hidden: null };
  return fields.find((field) => field.id === target.slug) ?? null;
}

const targetValue = (target: ColumnTarget) => (target.kind === 'field' ? `field:${target.slug}` : target.kind);
const targetOf = (value: string): ColumnTarget => (value.startsWith('field:') ? { kind: 'field', slug: value.slice(6) } : value === 'new' ? { kind: 'new' } : { kind: 'ignore' });

/** A value as the preview shows it (what will be sent). */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** Which field each column goes to (a select per column: new fields for admins only), then the first rows as they would be written, refused cells marked. */
export function ImportMapping({ csv, fields, access, targets, onChange }: { csv: ParsedCsv; fields: Field[]; access: ImportAccess; targets: ColumnTarget[]; onChange(targets: ColumnTarget[]): void }) {
  const choices = importableFields(fields, access);
  const mapped = csv.header.map((column, index) => fieldOfTarget(targets[index], column, fields));
  return (
    <>
      <fieldset className="field import-columns">
        <legend className="field-label">Columns</legend>
        {csv.header.map((column, index) => (
          <div className="settings-row" key={index}>
            <span className="import-column-name">{column || `(column ${index + 1})`}</span>
            <select id={`import-column-${index}`} className="input" aria-label={`Field for column ${column || index + 1}`} value={targetValue(targets[index])} onChange={(event) => onChange(targets.map((target, at) => (at === index ? targetOf(event.target.value) : target)))}>
              <option value="ignore">Do not import</option>
              {column.trim() !== '' && access.canManageTables && <option value="new">New text field “{column}”</option>}
              {choices.map((field) => (
                <option key={field.id} value={`field:${field.id}`}>
                  {field.name} ({field.type})
                </option>
              ))}
            </select>
          </div>
        ))}
      </fieldset>
      <div className="import-preview" role="region" aria-label="Preview" tabIndex={0}>
        <table>
          <caption>Preview of the first {Math.min(previewRows, csv.rows.length)} of {csv.rows.length.toLocaleString('en')} rows</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              {csv.header.map((column, index) => mapped[index] && <th scope="col" key={index}>{mapped[index].name}</th>)}
            </tr>
          </thead>
          <tbody>
            {csv.rows.slice(0, previewRows).map((row) => (
              <tr key={row.line}>
                <th scope="row">{row.line}</th>
                {csv.header.map((_, index) => {
                  const field = mapped[index];
                  if (!field) return null;
                  try {
                    if (row.cells.length !== csv.header.length) throw new CellRefused(`${row.cells.length} cells where the header has ${csv.header.length}`);
                    return <td key={index}>{shown(convertCell(row.cells[index], field))}</td>;
                  } catch (error) {
                    return (
                      <td key={index} className="import-refused">
                        {row.cells[index] ?? ''} <span className="field-error">{(error as Error).message}</span>
                      </td>
                    );
                  }
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
