import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { keys, useSpace, useTable } from '../api/queries';
import { useSpaceRole } from '../api/space-role';
import { Breadcrumbs } from '../layout/breadcrumbs';
import { Button } from '../ui/button';
import { ErrorState, LoadingState } from '../ui/states';
import { when } from './comment-thread';
import { messageOf } from './record-api';
import './record.css';

const trashPage = 50;

/** The table's deleted records, newest first (records/trash), each with Restore (records/restore) for those who may write records. */
export function TrashPage() {
  const params = useParams();
  const sid = Number(params.sid);
  const tid = Number(params.tid);
  const space = useSpace(sid);
  const table = useTable(tid);
  const { canWriteRecords } = useSpaceRole(sid);
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);
  const trash = useInfiniteQuery({
    queryKey: [...keys.records(tid), 'trash'],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => unwrap(api.POST('/api/table/{tid}/records/trash', { params: { path: { tid } }, body: { limit: trashPage, offset: pageParam } })),
    getNextPageParam: (last, pages) => (last.length < trashPage ? undefined : pages.length * trashPage),
  });
  const restore = async (id: number, title: string) => {
    setMessage(null);
    try {
      const answer = await unwrap(api.POST('/api/table/{tid}/records/restore', { params: { path: { tid } }, body: { ids: [id] } }));
      setMessage(answer.restored.includes(id) ? { kind: 'status', text: `Restored ${title}.` } : { kind: 'alert', text: `${title} is no longer in the trash.` });
      await queryClient.invalidateQueries({ queryKey: keys.records(tid) });
      void queryClient.invalidateQueries({ queryKey: keys.record(tid, id) });
    } catch (caught) {
      setMessage({ kind: 'alert', text: messageOf(caught) });
    }
  };
  if (table.isError) return <ErrorState error={table.error} />;
  const records = trash.data?.pages.flat() ?? [];
  return (
    <main className="page">
      <Breadcrumbs items={[{ label: 'Spaces', to: '/' }, { label: space.data?.name ?? '…', to: `/space/${sid}` }, { label: table.data?.name ?? '…', to: `/space/${sid}/table/${tid}` }, { label: 'Trash' }]} />
      <div className="page-header">
        <h1>{table.data?.name ?? 'Table'}: trash</h1>
        <Link to={`/space/${sid}/table/${tid}`}>Back to the table</Link>
      </div>
      <p className="muted">Deleted records stay here for 30 days, then they are purged.</p>
      {message && (
        <p className={message.kind === 'alert' ? 'form-error' : 'form-saved'} role={message.kind}>
          {message.text}
        </p>
      )}
      {trash.isPending ? (
        <LoadingState label="Loading the trash" />
      ) : trash.isError ? (
        <ErrorState error={trash.error} />
      ) : records.length === 0 ? (
        <p className="empty">The trash is empty.</p>
      ) : (
        <table className="settings-table">
          <thead>
            <tr>
              <th scope="col">Record</th>
              <th scope="col">Deleted</th>
              <th scope="col">By</th>
              {canWriteRecords && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {records.map((record) => {
              const title = record.title ?? `Record ${record.id}`;
              return (
                <tr key={record.id}>
                  <td>
                    {title} <span className="muted">#{record.id}</span>
                  </td>
                  <td>{when(record.deleted_at)}</td>
                  <td>{record.deleted_by.name}</td>
                  {canWriteRecords && (
                    <td>
                      <Button aria-label={`Restore ${title}`} onPress={() => void restore(record.id, title)}>
                        Restore
                      </Button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {trash.hasNextPage && (
        <Button variant="quiet" onPress={() => void trash.fetchNextPage()}>
          Show more
        </Button>
      )}
    </main>
  );
}
