import { Link, useParams, useSearchParams } from 'react-router';
import { useSpace, useTable } from '../api/queries';
import { Breadcrumbs } from '../layout/breadcrumbs';
import { RecordView } from './record-view';
import './record.css';

/** One record at its own address (/space/:sid/table/:tid/record/:rid); `?comment=<cid>` scrolls to a comment. */
export function RecordPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const sid = Number(params.sid);
  const tid = Number(params.tid);
  const rid = Number(params.rid);
  const space = useSpace(sid);
  const table = useTable(tid);
  return (
    <main className="page">
      <Breadcrumbs items={[{ label: 'Spaces', to: '/' }, { label: space.data?.name ?? '…', to: `/space/${sid}` }, { label: table.data?.name ?? '…', to: `/space/${sid}/table/${tid}` }, { label: `Record ${rid}` }]} />
      <RecordView
        sid={sid}
        tid={tid}
        rid={rid}
        headingId="record-title"
        focusComment={Number(search.get('comment') ?? 0) || undefined}
        actions={
          <Link className="button button-quiet" to={`/space/${sid}/table/${tid}`}>
            Back to the table
          </Link>
        }
      />
    </main>
  );
}
