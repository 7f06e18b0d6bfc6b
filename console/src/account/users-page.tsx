import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Button } from '../ui/button';
import { DataTable } from '../ui/data-table';
import { QueryContent } from '../ui/query-content';
import { accountKeys, useUsers } from './account-api';
import { AccountField, AccountForm } from './account-form';
import { AccountPage } from './account-nav';
import { ShownOnce } from './shown-once';

/** The owner: the account's users, and a new one (with a generated password shown once unless one is given). */
export function UsersPage() {
  const users = useUsers();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const create = async (form: FormData, element: HTMLFormElement) => {
    const password = String(form.get('password') ?? '');
    const user = await unwrap(api.POST('/api/users/create', { body: { email: String(form.get('email')), name: String(form.get('name')), ...(password ? { password } : {}) } }));
    element.reset();
    setCreated(user.password ? { email: user.email, password: user.password } : null);
    await queryClient.invalidateQueries({ queryKey: accountKeys.users });
  };
  return (
    <AccountPage title="Users">
      <section aria-labelledby="new-user-heading">
        <h2 id="new-user-heading">New user</h2>
        <AccountForm onSubmit={create} errorCodes={{ email_taken: 'email' }} label="New user" className="stack account-form">
          <AccountField label="E-mail" name="email" type="email" isRequired />
          <AccountField label="Name" name="name" isRequired />
          <AccountField label="Password" name="password" type="password" autoComplete="new-password" description="Leave empty to generate one (shown once)." />
          <Button type="submit" variant="primary">
            Create user
          </Button>
        </AccountForm>
        {created && <ShownOnce label={`Password of ${created.email}`} value={created.password} onDone={() => setCreated(null)} />}
      </section>
      <section aria-labelledby="users-heading">
        <h2 id="users-heading">Users of the account</h2>
        <QueryContent query={users} loading="Loading users">
          {(list) => (
            <DataTable className="account-table" columns={['Name', 'E-mail']}>
              {list.map((user) => (
                <tr key={user.id}>
                  <td>{user.name}</td>
                  <td>{user.email}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </QueryContent>
      </section>
    </AccountPage>
  );
}
