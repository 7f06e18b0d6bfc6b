import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { useSpace, useTable } from '../api/queries';
import type { Field } from '../api/types';
import { displayValue } from '../grid/cell-value';
import { Breadcrumbs } from '../layout/breadcrumbs';
import { ErrorState, LoadingState } from '../ui/states';

/** Created and updated times read as datetime fields do (UTC, spelled out). */
const timestampField = { id: 'created_at', name: 'Created', type: 'datetime' } as Field;

/** One record at its own address: every field, read as the grid shows it. */
export function RecordPage() {
  const params = useParams();
  const sid = Number(params.sid);
  const tid = Number(params.tid);
  const rid = Number(params.rid);
  const space = useSpace(sid);
  const table = useTable(tid);
  const record = useQuery({ queryKey: ['table', tid, 'records', 'one', rid], queryFn: () => unwrap(api.GET('/api/table/{tid}/record/{rid}/get', { params: { path: { tid, rid } } })) });
  if (table.isError || record.isError) return <ErrorState error={table.error ?? record.error} />;
  if (table.isPending || record.isPending) return <LoadingState label="Loading record" />;
  const title = record.data.title ?? `Record ${record.data.id}`;
  return (
    <main className="page">
      <Breadcrumbs items={[{ label: 'Spaces', to: '/' }, { label: space.data?.name ?? '…', to: `/space/${sid}` }, { label: table.data.name, to: `/space/${sid}/table/${tid}` }, { label: title }]} />
      <div className="page-header">
        <h1>{title}</h1>
        <Link to={`/space/${sid}/table/${tid}`}>Back to the grid</Link>
      </div>
      <dl className="record-fields">
        {table.data.fields.map((field) => (
          <div key={field.id} className="record-field">
            <dt>{field.name}</dt>
            <dd>{displayValue(field, (record.data.data as Record<string, unknown>)[field.id]) || <span className="muted">empty</span>}</dd>
          </div>
        ))}
        <div className="record-field">
          <dt>Created</dt>
          <dd>{displayValue(timestampField, record.data.created_at)}</dd>
        </div>
        <div className="record-field">
          <dt>Updated</dt>
          <dd>{displayValue(timestampField, record.data.updated_at)}</dd>
        </div>
      </dl>
    </main>
  );
}
