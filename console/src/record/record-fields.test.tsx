// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../api/queries';
import type { Table, TableRecord } from '../api/types';
import { makeField } from '../test-support/fields';
import { RecordFields } from './record-fields';

/**
 * The API's answers for `auth/me` and space 5's members: the client takes `fetch` when it is
 * made (as the page loads), so the stand-in is in place before any import. Each test says who
 * is signed in; the members requests are counted.
 */
const server = vi.hoisted(() => {
  const state = { me: {} as unknown, membersAsked: 0 };
  const members = [
    { user_id: 2, email: 'rita@example.com', name: 'Rita', role: 'reader' },
    { user_id: 3, email: 'eddie@example.com', name: 'Eddie', role: 'editor' },
  ];
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname;
    if (path === '/api/auth/me') return json(state.me);
    if (path === '/api/space/5/members/list') {
      state.membersAsked += 1;
      return json(members);
    }
    return new Response(JSON.stringify({ error: { code: 'not_found', message: `no ${path}` } }), { status: 404, headers: { 'content-type': 'application/json' } });
  };
  return state;
});

const table = {
  id: 4,
  name: 'Deals',
  space_id: 5,
  title_field: 'name',
  indexes: [],
  fields: [makeField('name', 'text'), makeField('closed', 'checkbox'), makeField('score', 'number', { editable_by: 'admins' })],
} as unknown as Table;
const record = { id: 9, title: 'Acme', created_at: '2024-01-01 00:00:00', updated_at: '2024-01-01 00:00:00', data: { name: 'Acme', closed: true, score: 3 } } as TableRecord;

function renderAs(user: { id: number; is_owner: boolean }) {
  server.me = { user: { id: user.id, email: `user${user.id}@example.com`, name: 'Someone' }, account_id: 1, is_owner: user.is_owner };
  server.membersAsked = 0;
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queries}>
      <RecordFields table={table} record={record} />
    </QueryClientProvider>,
  );
  return queries;
}

afterEach(cleanup);

describe('the record’s fields by the signed-in user’s role (useSpaceRole)', () => {
  it('lets the owner edit every field, an admins-only one too, without asking for the members', async () => {
    renderAs({ id: 1, is_owner: true });
    expect(await screen.findByRole('button', { name: /^Edit Score/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Edit Name/ })).toBeTruthy();
    expect(screen.getByRole('checkbox')).toBeTruthy();
    expect(server.membersAsked).toBe(0);
  });

  it('shows a reader every value read-only: no edit button, no checkbox', async () => {
    const queries = renderAs({ id: 2, is_owner: false });
    // Read-only while the role loads and once it is known: wait for the members' answer, and the render it causes.
    await waitFor(() => expect(queries.getQueryData(keys.members(5))).toBeDefined());
    await act(() => Promise.resolve());
    expect(server.membersAsked).toBe(1);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByText('Acme')).toBeTruthy();
    expect(screen.getByText('Yes')).toBeTruthy();
  });

  it('lets an editor edit the fields members may write, not the one only admins may', async () => {
    renderAs({ id: 3, is_owner: false });
    expect(await screen.findByRole('button', { name: /^Edit Name/ })).toBeTruthy();
    expect(screen.getByRole('checkbox')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Edit Score/ })).toBeNull();
    expect(screen.getByText('3')).toBeTruthy();
  });
});
