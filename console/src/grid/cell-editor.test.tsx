// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Field } from '../api/types';
import { makeField } from '../test-support/fields';
import { CellEditor } from './cell-editor';

function renderEditor(field: Field, value: unknown, extra: { typed?: string; error?: string } = {}) {
  const onSave = vi.fn();
  const onCancel = vi.fn();
  render(<CellEditor field={field} value={value} label={`${field.name}, row 1`} onSave={onSave} onCancel={onCancel} {...extra} />);
  return { onSave, onCancel, editor: screen.getByLabelText(`${field.name}, row 1`) };
}

afterEach(cleanup);

describe('the cell editor', () => {
  it('opens focused on the value; Enter saves what was typed', async () => {
    const user = userEvent.setup();
    const { onSave, editor } = renderEditor(makeField('name', 'text'), 'Acme');
    expect(document.activeElement).toBe(editor);
    expect((editor as HTMLInputElement).value).toBe('Acme');
    await user.clear(editor);
    await user.type(editor, 'Globex{Enter}');
    expect(onSave).toHaveBeenCalledWith('Globex', 'enter');
  });

  it('starts from the text typed on the cell (it replaces the value), with the caret after it', async () => {
    const user = userEvent.setup();
    const { onSave, editor } = renderEditor(makeField('name', 'text'), 'Acme', { typed: 'G' });
    expect((editor as HTMLInputElement).value).toBe('G');
    await user.keyboard('lobex{Tab}');
    expect(onSave).toHaveBeenCalledWith('Globex', 'tab');
  });

  it('Esc cancels without saving; Shift+Tab saves and moves back', async () => {
    const user = userEvent.setup();
    const first = renderEditor(makeField('name', 'text'), 'Acme');
    await user.keyboard('{Escape}');
    expect(first.onCancel).toHaveBeenCalled();
    expect(first.onSave).not.toHaveBeenCalled();
    cleanup();
    const second = renderEditor(makeField('name', 'text'), 'Acme');
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(second.onSave).toHaveBeenCalledWith('Acme', 'shift-tab');
  });

  it('keeps its keys from the grid (no arrow or Enter reaches it)', async () => {
    const user = userEvent.setup();
    const outer = vi.fn();
    render(
      <div onKeyDown={outer}>
        <CellEditor field={makeField('name', 'text')} value="a" label="Name, row 1" onSave={() => undefined} onCancel={() => undefined} />
      </div>,
    );
    await user.keyboard('{ArrowDown}{ArrowLeft}b{Enter}');
    expect(outer).not.toHaveBeenCalled();
  });

  it('long text: Shift+Enter is a new line, Enter saves', async () => {
    const user = userEvent.setup();
    const { onSave, editor } = renderEditor(makeField('notes', 'longtext'), 'one');
    expect(editor.tagName).toBe('TEXTAREA');
    await user.keyboard('{Shift>}{Enter}{/Shift}two');
    expect(onSave).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('one\ntwo', 'enter');
  });

  it('gives each type its input: decimal keypad for numbers, date, datetime and time pickers, e-mail and URL', () => {
    const cases: Array<[Field, unknown, string, string]> = [
      [makeField('amount', 'number', { decimals: 2 }), 12.5, 'text', '12.5'],
      [makeField('due', 'date'), '2025-03-04', 'date', '2025-03-04'],
      [makeField('closed', 'datetime'), '2025-03-04 10:11:12', 'datetime-local', '2025-03-04T10:11:12'],
      [makeField('at', 'time'), '09:30:15', 'time', '09:30:15'],
      [makeField('email', 'email'), 'a@example.com', 'email', 'a@example.com'],
      [makeField('site', 'url'), 'https://example.com/', 'url', 'https://example.com/'],
    ];
    for (const [field, value, type, text] of cases) {
      const { editor } = renderEditor(field, value);
      expect([field.type, (editor as HTMLInputElement).type, (editor as HTMLInputElement).value]).toEqual([field.type, type, text]);
      if (field.type === 'number') expect(editor.getAttribute('inputmode')).toBe('decimal');
      cleanup();
    }
  });

  it('a select picks one of its options (or none)', async () => {
    const user = userEvent.setup();
    const { onSave, editor } = renderEditor(makeField('stage', 'select', { options: [{ value: 'lead' }, { value: 'won' }] }), 'lead');
    expect(Array.from((editor as HTMLSelectElement).options).map((option) => option.value)).toEqual(['', 'lead', 'won']);
    await user.selectOptions(editor, 'won');
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('won', 'enter');
  });

  it('a multiple select saves every chosen option', async () => {
    const user = userEvent.setup();
    const { onSave, editor } = renderEditor(makeField('tags', 'select', { multiple: true, options: [{ value: 'red' }, { value: 'blue' }, { value: 'vip' }] }), ['red']);
    expect((editor as HTMLSelectElement).multiple).toBe(true);
    await user.selectOptions(editor, ['red', 'vip']);
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith(['red', 'vip'], 'enter');
  });

  it("shows the server's error on the cell, tied to its input", () => {
    const { editor } = renderEditor(makeField('email', 'email'), 'nope', { error: 'Invalid value for field: Email: not an e-mail address' });
    expect(screen.getByRole('alert').textContent).toBe('Invalid value for field: Email: not an e-mail address');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(editor.getAttribute('aria-describedby')).toBe('cell-error');
  });
});
