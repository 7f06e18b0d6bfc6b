// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TableRecord } from '../api/types';
import { spanKey } from './record-spans';

/** Every `records/query` the window sends, by its body: the client takes `fetch` when it is made, so the stand-in is in place before any import. */
const sent = vi.hoisted(() => {
  const bodies: Array<{ offset: number; limit: number }> = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const body = (await request.json()) as { offset: number; limit: number };
    bodies.push(body);
    const records = Array.from({ length: body.limit }, (_, index) => ({ id: body.offset + index + 1, title: null, created_at: '', updated_at: '', data: {} }));
    return new Response(JSON.stringify(records), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return bodies;
});

const { useRecordWindow, firstWindowRows } = await import('./record-window');

const records = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ id: from + index + 1, title: null, created_at: '', updated_at: '', data: {} }) as unknown as TableRecord);

afterEach(() => {
  cleanup();
  sent.length = 0;
});

describe('the record window', () => {
  it('waits for the page’s first rows and, once they answer, asks for nothing more', async () => {
    const client = new QueryClient();
    // The table page's first request, still under way when the grid draws its window.
    let answer!: (rows: TableRecord[]) => void;
    void client.prefetchQuery({ queryKey: spanKey(1, 0, '', 0, firstWindowRows), queryFn: () => new Promise<TableRecord[]>((resolve) => (answer = resolve)), staleTime: Infinity });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const window = renderHook(() => useRecordWindow(1, 0, 0, 22, 3000), { wrapper });
    expect(window.result.current.recordAt(0)).toBeUndefined();

    await act(async () => answer(records(0, firstWindowRows)));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    // Drawn from the first request's rows; a render that saw the request answered but not its rows asked again (offset 0, limit 123).
    expect(window.result.current.recordAt(22)?.id).toBe(23);
    expect(sent).toEqual([]);
  });

  it('sees a span answered between its first render and its subscription to the cache', async () => {
    const client = new QueryClient();
    // A sibling drawn before the window answers the page's first request in its effect, which
    // runs after the window's render and before the window's own effects.
    function Answer() {
      useEffect(() => void client.setQueryData(spanKey(1, 0, '', 0, firstWindowRows), records(0, firstWindowRows)), []);
      return null;
    }
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <Answer />
        {children}
      </QueryClientProvider>
    );
    // No window yet (the grid has not measured itself), then the measured one.
    const window = renderHook(({ last }) => useRecordWindow(1, 0, 0, last, 3000), { wrapper, initialProps: { last: -1 } });
    window.rerender({ last: 22 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(window.result.current.recordAt(5)?.id).toBe(6);
    expect(sent).toEqual([]);
  });
});
