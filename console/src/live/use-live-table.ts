import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { TableStream } from './table-stream';

/** Open streams by table, with how many mounted views use each: one stream per table per tab, however many views show it. */
const streams = new Map<number, { stream: TableStream; users: number }>();

/**
 * Keeps the cached records of table `tid` following its change feed while the calling
 * component is mounted (every layout of a table page reads under `keys.records(tid)`, so all
 * of them are live). Mount it once per open table view.
 */
export function useLiveTable(tid: number): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!Number.isSafeInteger(tid) || tid <= 0) return;
    let entry = streams.get(tid);
    if (!entry) streams.set(tid, (entry = { stream: new TableStream(queryClient, tid), users: 0 }));
    entry.users += 1;
    return () => {
      entry.users -= 1;
      if (entry.users === 0) {
        entry.stream.stop();
        streams.delete(tid);
      }
    };
  }, [queryClient, tid]);
}

/**
 * Holds table `tid`'s stream in this tab closed until the answer is called (TableStream.pause):
 * for a burst of the tab's own writes, such as a CSV import of 100,000 rows, whose changes would
 * otherwise come back one frame each and refetch the open views every 100 ms. When released,
 * the stream reopens at now and the table's record queries are refetched once.
 */
export function pauseLiveTable(tid: number): () => void {
  const entry = streams.get(tid);
  entry?.stream.pause();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    entry?.stream.resume();
  };
}
