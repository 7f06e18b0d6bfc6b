// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Field } from '../api/types';
import { makeField } from '../test-support/fields';
import { CellEditor } from './cell-editor';

/**
 * The console's API answers, by method and path: the client takes `fetch` when it is made (as
 * the page loads), so the stand-in is in place before any import. Searches are recorded.
 */
const server = vi.hoisted(() => {
  const searches: unknown[] = [];
  const members = [
    { user_id: 2, email: 'ada@example.com', name: 'Ada' },
    { user_id: 3, email: 'bob@example.com', name: null },
  ];
  const companies = [
    { id: 7, title: 'Acme', data: {} },
    { id: 8, title: 'Acme East', data: {} },
    { id: 9, title: 'Globex', data: {} },
  ];
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname;
    if (path === '/api/auth/me') return json({ user: { id: 1, email: 'owner@example.com', name: 'Owner' } });
    if (path === '/api/space/5/members/list') return json(members);
    if (path === '/api/table/4/records/query') {
      const body = (await request.json()) as { search?: string };
      searches.push(body);
      return json(companies.filter((company) => company.title.toLowerCase().includes((body.search ?? '').toLowerCase())));
    }
    return new Response(JSON.stringify({ error: { code: 'not_found', message: `no ${path}` } }), { status: 404, headers: { 'content-type': 'application/json' } });
  };
  return { searches };
});

function renderPicker(field: Field, value: unknown) {
  const onSave = vi.fn();
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queries}>
      <CellEditor field={field} spaceId={5} value={value} label={`${field.name}, row 1`} onSave={onSave} onCancel={() => undefined} />
    </QueryClientProvider>,
  );
  return { onSave, picker: screen.getByLabelText(`${field.name}, row 1`) as HTMLSelectElement };
}

const optionTexts = (select: HTMLSelectElement) => Array.from(select.options).map((option) => option.textContent);

afterEach(() => {
  cleanup();
  server.searches.length = 0;
});

describe('the user picker', () => {
  it("lists the space's members and the owner (not a member), and saves the chosen id", async () => {
    const user = userEvent.setup();
    const { onSave, picker } = renderPicker(makeField('owner', 'user'), { id: 2, email: 'ada@example.com', name: 'Ada' });
    await waitFor(() => expect(optionTexts(picker)).toEqual(['(nobody)', 'Owner (owner@example.com)', 'Ada (ada@example.com)', 'bob@example.com']));
    expect(picker.value).toBe('2');
    expect(document.activeElement).toBe(picker);
    await user.selectOptions(picker, '3');
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('3', 'enter');
  });

  it('a multiple user field keeps the chosen users selected and saves them all', async () => {
    const user = userEvent.setup();
    const { onSave } = renderPicker(makeField('team', 'user', { multiple: true }), [{ id: 3, email: 'bob@example.com' }]);
    await waitFor(() => expect(optionTexts(screen.getByRole('listbox', { name: 'Team, row 1' }) as HTMLSelectElement)).toHaveLength(3));
    // The list is drawn again once the members arrive: take the one on the page now.
    const picker = screen.getByRole('listbox', { name: 'Team, row 1' }) as HTMLSelectElement;
    expect(Array.from(picker.selectedOptions).map((option) => option.value)).toEqual(['3']);
    await user.selectOptions(picker, ['1']);
    picker.focus();
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith(['1', '3'], 'enter');
  });
});

describe('the lookup picker', () => {
  it('starts in its search box, searches the target table, and Enter saves the match chosen with the arrows', async () => {
    const user = userEvent.setup();
    const { onSave, picker } = renderPicker(makeField('company', 'lookup', { table_id: 4 }), { id: 9, title: 'Globex' });
    const search = screen.getByRole('searchbox', { name: 'Search Company, row 1' });
    expect(document.activeElement).toBe(search);
    await user.type(search, 'acme');
    await waitFor(() => expect(optionTexts(picker)).toEqual(['(none)', 'Globex', 'Acme', 'Acme East']));
    expect(server.searches.at(-1)).toEqual({ search: 'acme', limit: 20 });
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(picker);
    await user.selectOptions(picker, '8');
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('8', 'enter');
  });

  it('Esc in the search box cancels, as in every editor', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <CellEditor field={makeField('company', 'lookup', { table_id: 4 })} value={null} label="Company, row 1" onSave={() => undefined} onCancel={onCancel} />
      </QueryClientProvider>,
    );
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalled();
  });
});
