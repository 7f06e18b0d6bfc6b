import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { keys, useSpaces } from '../api/queries';
import { useIsOwner } from '../account/account-api';
import { FormDialog } from '../ui/form-dialog';
import { ErrorState, LoadingState } from '../ui/states';
import { TextInput } from '../ui/text-input';

/** Home: the spaces the user sees, by name. */
export function SpacesPage() {
  const spaces = useSpaces();
  const owner = useIsOwner();
  const queryClient = useQueryClient();
  const createSpace = async (form: FormData) => {
    await unwrap(api.POST('/api/spaces/create', { body: { name: String(form.get('name')) } }));
    await queryClient.invalidateQueries({ queryKey: keys.spaces });
  };
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
      {spaces.isPending ? (
        <LoadingState label="Loading spaces" />
      ) : spaces.isError ? (
        <ErrorState error={spaces.error} />
      ) : spaces.data.length === 0 ? (
        <p className="empty">No spaces yet.</p>
      ) : (
        <ul className="card-list" aria-label="Spaces">
          {spaces.data.map((space) => (
            <li key={space.id}>
              <Link className="card" to={`/space/${space.id}`}>
                <span className="card-title">{space.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
