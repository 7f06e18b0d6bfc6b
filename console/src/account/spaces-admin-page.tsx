import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { keys, useSpaces } from '../api/queries';
import { Button } from '../ui/button';
import { ErrorState, LoadingState } from '../ui/states';
import { AccountField, AccountForm } from './account-form';
import { AccountPage } from './account-nav';

/** The owner: every space of the account, a new one, and a link to each one's settings and members. */
export function SpacesAdminPage() {
  const spaces = useSpaces();
  const queryClient = useQueryClient();
  const [formKey, setFormKey] = useState(0);
  const create = async (form: FormData) => {
    await unwrap(api.POST('/api/spaces/create', { body: { name: String(form.get('name')) } }));
    setFormKey((k) => k + 1);
    await queryClient.invalidateQueries({ queryKey: keys.spaces });
  };
  return (
    <AccountPage title="Spaces">
      <section aria-labelledby="new-space-heading">
        <h2 id="new-space-heading">New space</h2>
        <AccountForm key={formKey} onSubmit={create} label="New space" className="row account-form-inline">
          <AccountField label="Name" name="name" isRequired />
          <Button type="submit" variant="primary">
            Create space
          </Button>
        </AccountForm>
      </section>
      <section aria-labelledby="spaces-heading">
        <h2 id="spaces-heading">Spaces of the account</h2>
        {spaces.isPending ? (
          <LoadingState label="Loading spaces" />
        ) : spaces.isError ? (
          <ErrorState error={spaces.error} />
        ) : spaces.data.length === 0 ? (
          <p className="empty">No spaces yet.</p>
        ) : (
          <ul className="account-list" aria-label="Spaces">
            {spaces.data.map((space) => (
              <li key={space.id}>
                <Link to={`/account/spaces/${space.id}`}>{space.name}</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </AccountPage>
  );
}
