import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { keys, useSpace, useTables } from '../api/queries';
import { useSpaceRole } from '../api/space-role';
import { Breadcrumbs } from '../layout/breadcrumbs';
import { FormDialog } from '../ui/form-dialog';
import { QueryContent } from '../ui/query-content';
import { ErrorState } from '../ui/states';
import { TextInput } from '../ui/text-input';

/** A space: its tables by name, and for its admins "New table" (a table starts with one text field, Name). */
export function SpacePage() {
  const sid = Number(useParams().sid);
  const space = useSpace(sid);
  const tables = useTables(sid);
  const { canManageTables } = useSpaceRole(sid);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const createTable = async (form: FormData) => {
    const table = await unwrap(
      api.POST('/api/space/{sid}/tables/create', { params: { path: { sid } }, body: { name: String(form.get('name')), fields: [{ name: 'Name', type: 'text' }], title_field: 'name' } }),
    );
    await queryClient.invalidateQueries({ queryKey: keys.tables(sid) });
    navigate(`/space/${sid}/table/${table.id}`);
  };
  if (space.isError) return <ErrorState error={space.error} />;
  return (
    <main className="page">
      <Breadcrumbs items={[{ label: 'Spaces', to: '/' }, { label: space.data?.name ?? '…' }]} />
      <div className="page-header">
        <h1>{space.data?.name ?? 'Space'}</h1>
        {canManageTables && (
          <FormDialog trigger="New table" title="New table" submitLabel="Create table" onSubmit={createTable}>
            <TextInput label="Name" name="name" isRequired autoFocus />
          </FormDialog>
        )}
      </div>
      <h2 className="section-title">Tables</h2>
      <QueryContent query={tables} loading="Loading tables" empty="No tables yet.">
        {(list) => (
          <ul className="card-list" aria-label="Tables">
            {list.map((table) => (
              <li key={table.id}>
                <Link className="card" to={`/space/${sid}/table/${table.id}`}>
                  <span className="card-title">{table.name}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </QueryContent>
    </main>
  );
}
