import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Field } from '../api/types';
import { editorText } from './cell-value';
import { LookupPicker, UserPicker } from './picker-editors';

export type EditorExit = 'enter' | 'tab' | 'shift-tab';

interface CellEditorProps {
  field: Field;
  /** The table's space: a user field picks from its members. */
  spaceId?: number;
  value: unknown;
  /** Text typed on the cell that opened the editor (replaces the value, as in a spreadsheet). */
  typed?: string;
  label: string;
  error?: string;
  onSave(text: string | string[], exit: EditorExit): void;
  onCancel(): void;
}

/** The inline editor of one cell: Enter saves, Esc cancels, Tab saves and moves on. */
export function CellEditor({ field, spaceId, value, typed, label, error, onSave, onCancel }: CellEditorProps) {
  const [text, setText] = useState(typed ?? editorText(field, value));
  const input = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = input.current;
    if (!element) return;
    // A lookup's picker starts in its search box (just before its list of matches).
    const search = field.type === 'lookup' ? element.previousElementSibling : null;
    if (search instanceof HTMLInputElement) search.focus();
    else element.focus();
    if (typed !== undefined && element instanceof HTMLInputElement && element.type === 'text') element.setSelectionRange(text.length, text.length);
    // Only when it opens: later keystrokes keep the caret where the user puts it.
  }, []);
  const selected = () => (input.current instanceof HTMLSelectElement && input.current.multiple ? [...input.current.selectedOptions].map((option) => option.value) : text);
  const onKeyDown = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !(field.type === 'longtext' && event.shiftKey)) {
      event.preventDefault();
      onSave(selected(), 'enter');
    } else if (event.key === 'Tab') {
      event.preventDefault();
      onSave(selected(), event.shiftKey ? 'shift-tab' : 'tab');
    }
  };
  const common = { ref: input, 'aria-label': label, className: 'cell-input', onKeyDown, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? 'cell-error' : undefined };
  return (
    <div className="cell-editor">
      {field.type === 'user' ? (
        <UserPicker field={field} text={text} setText={setText} value={value} common={common} spaceId={spaceId ?? 0} />
      ) : field.type === 'lookup' ? (
        <LookupPicker field={field} text={text} setText={setText} value={value} common={common} />
      ) : (
        editorFor(field, text, setText, common, value)
      )}
      {error && (
        <div id="cell-error" className="cell-error-bubble" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

function editorFor(field: Field, text: string, setText: (text: string) => void, common: Record<string, unknown>, value: unknown) {
  const onChange = (event: { target: { value: string } }) => setText(event.target.value);
  switch (field.type) {
    case 'longtext':
      return <textarea {...common} value={text} onChange={onChange} rows={4} />;
    case 'number':
      return <input {...common} type="text" inputMode="decimal" value={text} onChange={onChange} />;
    case 'date':
      return <input {...common} type="date" value={text} onChange={onChange} />;
    case 'datetime':
      return <input {...common} type="datetime-local" step={1} value={text} onChange={onChange} />;
    case 'time':
      return <input {...common} type="time" step={1} value={text} onChange={onChange} />;
    case 'email':
      return <input {...common} type="email" value={text} onChange={onChange} />;
    case 'url':
      return <input {...common} type="url" value={text} onChange={onChange} />;
    case 'select': {
      const options = ((field as { options?: { value: string }[] }).options ?? []).map((option) => option.value);
      if (field.multiple) {
        const chosen = Array.isArray(value) ? (value as string[]) : [];
        return (
          <select {...common} multiple defaultValue={chosen} size={Math.min(6, Math.max(2, options.length))}>
            {options.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        );
      }
      return (
        <select {...common} value={text} onChange={onChange}>
          <option value="">(empty)</option>
          {options.map((option) => (
            <option key={option}>{option}</option>
          ))}
        </select>
      );
    }
    default:
      return <input {...common} type="text" value={text} onChange={onChange} />;
  }
}
