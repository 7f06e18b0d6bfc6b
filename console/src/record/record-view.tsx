import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import { keys, useTable } from '../api/queries';
import { useSpaceRole } from '../api/space-role';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ErrorState, LoadingState } from '../ui/states';
import { CommentThread } from './comment-thread';
import { messageOf, recordKey, useRecord, useSubscription } from './record-api';
import { RecordFields } from './record-fields';
import { RecordHistory } from './record-history';

interface RecordViewProps {
  sid: number;
  tid: number;
  rid: number;
  /** The heading's level and id (the drawer labels its dialog with it). */
  headingId: string;
  /** Links or buttons beside the title (open as a page, close). */
  actions?: ReactNode;
  /** A comment to scroll to (from a notification). */
  focusComment?: number;
}

/** One record: its fields, files, comments, subscription and history; a deleted one offers to restore it. What the signed-in user may not change is shown read-only. */
export function RecordView({ sid, tid, rid, headingId, actions, focusComment }: RecordViewProps) {
  const table = useTable(tid);
  const record = useRecord(tid, rid);
  const access = useSpaceRole(sid);
  const queryClient = useQueryClient();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const afterWrite = () => {
    void queryClient.invalidateQueries({ queryKey: keys.records(tid) });
    void queryClient.invalidateQueries({ queryKey: keys.record(tid, rid) });
  };
  const deleteRecord = async () => {
    setConfirmDelete(false);
    setError(null);
    try {
      await unwrap(api.POST('/api/table/{tid}/record/{rid}/delete', { params: { path: { tid, rid } } }));
      afterWrite();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  const restore = async () => {
    setError(null);
    try {
      const answer = await unwrap(api.POST('/api/table/{tid}/records/restore', { params: { path: { tid } }, body: { ids: [rid] } }));
      if (!answer.restored.includes(rid)) setError(`Record ${rid} is not in the trash (it may have been purged).`);
      await queryClient.resetQueries({ queryKey: recordKey(tid, rid) });
      afterWrite();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };

  if (table.isError) return <ErrorState error={table.error} />;
  if (table.isPending || record.isPending) return <LoadingState label="Loading record" />;
  if (record.isError) {
    const gone = record.error instanceof ApiError && record.error.code === 'record_not_found';
    return (
      <div className="record-view">
        <div className="record-header">
          <h1 id={headingId}>{gone ? `Record ${rid} is deleted` : `Record ${rid}`}</h1>
          {actions}
        </div>
        {gone ? (
          <>
            <p>
              It is in the table&apos;s trash for 30 days after its deletion (unless it never existed).
              {access.canWriteRecords ? ' Restoring it brings back its values, files and comments.' : ''}
            </p>
            {access.canWriteRecords && (
              <Button variant="primary" onPress={() => void restore()}>
                Restore record
              </Button>
            )}
          </>
        ) : (
          <ErrorState error={record.error} />
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {gone && <RecordHistory table={table.data} rid={rid} />}
      </div>
    );
  }
  const title = record.data.title ?? `Record ${rid}`;
  return (
    <div className="record-view">
      <div className="record-header">
        <h1 id={headingId}>{title}</h1>
        <SubscribeButton tid={tid} rid={rid} />
        {access.canWriteRecords && (
          <Button variant="quiet" onPress={() => setConfirmDelete(true)}>
            Delete record
          </Button>
        )}
        {actions}
      </div>
      <p className="muted record-meta">
        Record {rid} · in {table.data.name}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <RecordFields table={table.data} record={record.data} />
      <CommentThread tid={tid} rid={rid} sid={sid} focusComment={focusComment} canComment={access.canWriteRecords} />
      <RecordHistory table={table.data} rid={rid} />
      <ConfirmDialog isOpen={confirmDelete} title="Delete this record?" message={`${title} goes to the table's trash, where it can be restored for 30 days.`} confirmLabel="Delete record" onConfirm={() => void deleteRecord()} onCancel={() => setConfirmDelete(false)} />
    </div>
  );
}

/** Follow the record to hear of its new comments (subscriptions/<tid>/<rid>/subscribe). */
function SubscribeButton({ tid, rid }: { tid: number; rid: number }) {
  const status = useSubscription(tid, rid);
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const following = !!status.data?.record;
  const toggle = async () => {
    setError(null);
    try {
      const path = { tid, rid };
      await unwrap(following ? api.POST('/api/subscriptions/{tid}/{rid}/unsubscribe', { params: { path } }) : api.POST('/api/subscriptions/{tid}/{rid}/subscribe', { params: { path } }));
      await queryClient.invalidateQueries({ queryKey: [...keys.record(tid, rid), 'subscription'] });
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  if (status.isError) return null;
  return (
    <>
      <Button variant="secondary" isDisabled={status.isPending} onPress={() => void toggle()}>
        {following ? 'Unsubscribe' : 'Subscribe'}
      </Button>
      {status.data?.table && <span className="muted">Following the whole table</span>}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
