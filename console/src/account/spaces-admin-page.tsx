import { useState } from 'react';
import { Link } from 'react-router';
import { useSpaces } from '../api/queries';
import { Button } from '../ui/button';
import { QueryContent } from '../ui/query-content';
import { useCreateSpace } from './account-api';
import { AccountField, AccountForm } from './account-form';
import { AccountPage } from './account-nav';

/** The owner: every space of the account, a new one, and a link to each one's settings and members. */
export function SpacesAdminPage() {
  const spaces = useSpaces();
  const createSpace = useCreateSpace();
  const [formKey, setFormKey] = useState(0);
  const create = async (form: FormData) => {
    await createSpace(form);
    setFormKey((k) => k + 1);
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
        <QueryContent query={spaces} loading="Loading spaces" empty="No spaces yet.">
          {(list) => (
            <ul className="account-list" aria-label="Spaces">
              {list.map((space) => (
                <li key={space.id}>
                  <Link to={`/account/spaces/${space.id}`}>{space.name}</Link>
                </li>
              ))}
            </ul>
          )}
        </QueryContent>
      </section>
    </AccountPage>
  );
}
