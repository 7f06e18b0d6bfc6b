import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { useSpaces } from '../api/queries';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { actionsColumn, DataTable } from '../ui/data-table';
import { QueryContent } from '../ui/query-content';
import { accountKeys, useIsOwner, useKeys, useUsers, type ApiKey } from './account-api';
import { AccountField, AccountForm } from './account-form';
import { AccountPage } from './account-nav';
import { ShownOnce } from './shown-once';

const lines = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/**
 * API keys: the owner manages every key of the account (account keys, anyone's personal keys);
 * everyone else their own personal keys. The secret is shown once, at creation.
 */
export function KeysPage() {
  const owner = useIsOwner();
  const keys = useKeys();
  const spaces = useSpaces();
  const users = useUsers(owner);
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const create = async (form: FormData, element: HTMLFormElement) => {
    const kind = owner ? (String(form.get('kind')) as 'account' | 'personal') : 'personal';
    const spaceIds = form.getAll('spaces').map(Number);
    const ipAllow = lines(String(form.get('ip_allow') ?? ''));
    const expires = String(form.get('expires_at') ?? '');
    const userId = String(form.get('user_id') ?? '');
    const created = await unwrap(
      api.POST('/api/keys/create', {
        body: {
          name: String(form.get('name')),
          kind,
          read_only: form.get('read_only') === 'yes',
          ...(spaceIds.length ? { spaces: spaceIds } : {}),
          ...(ipAllow.length ? { ip_allow: ipAllow } : {}),
          ...(expires ? { expires_at: expires } : {}),
          ...(kind === 'personal' && userId ? { user_id: Number(userId) } : {}),
        },
      }),
    );
    element.reset();
    setSecret({ name: created.name, key: created.key });
    await queryClient.invalidateQueries({ queryKey: accountKeys.keys });
  };
  const revoke = async () => {
    if (!revoking) return;
    const key = revoking;
    setRevoking(null);
    await unwrap(api.POST('/api/key/{id}/revoke', { params: { path: { id: key.id } } }));
    await queryClient.invalidateQueries({ queryKey: accountKeys.keys });
  };
  const userName = (id: number | null) => (id === null ? '—' : (users.data?.find((u) => u.id === id)?.email ?? `user ${id}`));
  const spaceName = (id: number) => spaces.data?.find((s) => s.id === id)?.name ?? `space ${id}`;

  return (
    <AccountPage title="API keys">
      <section aria-labelledby="new-key-heading">
        <h2 id="new-key-heading">New key</h2>
        <AccountForm onSubmit={create} label="New key">
          <AccountField label="Name" name="name" isRequired />
          {owner && (
            <fieldset className="field fieldset">
              <legend className="field-label">Kind</legend>
              <label className="checkbox-field">
                <input type="radio" name="kind" value="personal" defaultChecked /> Personal (acts as a user, with their roles)
              </label>
              <label className="checkbox-field">
                <input type="radio" name="kind" value="account" /> Account (acts for the whole account)
              </label>
            </fieldset>
          )}
          {owner && users.data && (
            <label className="field">
              <span className="field-label">User of a personal key</span>
              <select name="user_id" className="input" defaultValue="">
                <option value="">Me</option>
                {users.data.map((user) => (
                  <option key={user.id} value={user.id}>
                    {user.email}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="checkbox-field">
            <input type="checkbox" name="read_only" value="yes" /> Read-only
          </label>
          {spaces.data && spaces.data.length > 0 && (
            <fieldset className="field fieldset">
              <legend className="field-label">Spaces (none checked: every space)</legend>
              {spaces.data.map((space) => (
                <label className="checkbox-field" key={space.id}>
                  <input type="checkbox" name="spaces" value={space.id} /> {space.name}
                </label>
              ))}
            </fieldset>
          )}
          <AccountField label="IP allow-list" name="ip_allow" description="Addresses or CIDR ranges, separated by spaces or commas; empty: any address." />
          <AccountField label="Expires on" name="expires_at" type="date" description="Empty: never." />
          <Button type="submit" variant="primary">
            Create key
          </Button>
        </AccountForm>
        {secret && <ShownOnce label={`Key ${secret.name}`} value={secret.key} onDone={() => setSecret(null)} />}
      </section>
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        <QueryContent query={keys} loading="Loading keys" empty="No keys.">
          {(list) => (
            <DataTable className="account-table" columns={['Name', 'Kind', owner && 'User', 'Access', 'Spaces', 'IP allow-list', 'Last used', 'Expires', actionsColumn]}>
              {list.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>{key.kind}</td>
                  {owner && <td>{userName(key.user_id)}</td>}
                  <td>{key.read_only ? 'read-only' : 'read and write'}</td>
                  <td>{key.spaces ? key.spaces.map(spaceName).join(', ') : 'all'}</td>
                  <td>{key.ip_allow ? key.ip_allow.join(', ') : 'any'}</td>
                  <td>{key.last_used_at ?? 'never'}</td>
                  <td>{key.expires_at ?? 'never'}</td>
                  <td>
                    <Button variant="danger" onPress={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </QueryContent>
      </section>
      <ConfirmDialog
        isOpen={revoking !== null}
        title="Revoke key?"
        message={`Key "${revoking?.name ?? ''}" stops working at once; this cannot be undone.`}
        confirmLabel="Revoke"
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      />
    </AccountPage>
  );
}
