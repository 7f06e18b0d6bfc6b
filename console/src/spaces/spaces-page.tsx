import { Link } from 'react-router';
import { useSpaces } from '../api/queries';
import { useCreateSpace, useIsOwner } from '../account/account-api';
import { FormDialog } from '../ui/form-dialog';
import { QueryContent } from '../ui/query-content';
import { TextInput } from '../ui/text-input';

/** Home: the spaces the user sees, by name. */
export function SpacesPage() {
  const spaces = useSpaces();
  const owner = useIsOwner();
  const createSpace = useCreateSpace();
  return (
    <main className="page">
      <div className="page-header">
        <h1>Spaces</h1>
        {/* Only the owner creates spaces (GET /api/auth/me's is_owner). */}
        {owner && (
          <FormDialog trigger="New space" title="New space" submitLabel="Create space" onSubmit={createSpace}>
            <TextInput label="Name" name="name" isRequired autoFocus />
          </FormDialog>
        )}
      </div>
      <QueryContent query={spaces} loading="Loading spaces" empty="No spaces yet.">
        {(list) => (
          <ul className="card-list" aria-label="Spaces">
            {list.map((space) => (
              <li key={space.id}>
                <Link className="card" to={`/space/${space.id}`}>
                  <span className="card-title">{space.name}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </QueryContent>
    </main>
  );
}
