import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { actionsColumn, DataTable } from '../ui/data-table';
import { QueryContent } from '../ui/query-content';
import { keys, useMe, useSpaceMembers } from '../api/queries';
import { useUsers, type Member } from './account-api';
import { AccountForm } from './account-form';

const roles = ['admin', 'editor', 'reader'] as const;
type Role = (typeof roles)[number];

/** A space's members: add a user of the account with a role, change a role, remove one. */
export function MembersSection({ sid }: { sid: number }) {
  const members = useSpaceMembers(sid);
  const users = useUsers();
  const me = useMe();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.members(sid) });
  const add = async (form: FormData) => {
    const userId = Number(form.get('user_id'));
    await unwrap(api.POST('/api/space/{sid}/members/add', { params: { path: { sid } }, body: { user_id: userId, role: String(form.get('role')) as Role } }));
    await refresh();
  };
  const changeRole = async (member: Member, role: Role) => {
    setError(null);
    try {
      await unwrap(api.POST('/api/space/{sid}/members/add', { params: { path: { sid } }, body: { user_id: member.user_id, role } }));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
    await refresh();
  };
  const remove = async () => {
    if (!removing) return;
    const member = removing;
    setRemoving(null);
    setError(null);
    try {
      await unwrap(api.POST('/api/space/{sid}/members/remove', { params: { path: { sid } }, body: { user_id: member.user_id } }));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
    await refresh();
  };
  // The owner (the one signed in here) is an admin of every space already.
  const candidates = users.data?.filter((user) => user.id !== me.data?.user.id && !members.data?.some((m) => m.user_id === user.id)) ?? [];
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <p className="field-hint">The account owner is an admin of every space without being listed.</p>
      <QueryContent query={members} loading="Loading members" empty="No members yet.">
        {(list) => (
          <DataTable className="account-table" columns={['Name', 'E-mail', 'Role', actionsColumn]}>
            {list.map((member) => (
              <tr key={member.user_id}>
                <td>{member.name}</td>
                <td>{member.email}</td>
                <td>
                  <select className="input" aria-label={`Role of ${member.email}`} value={member.role} onChange={(event) => void changeRole(member, event.target.value as Role)}>
                    {roles.map((role) => (
                      <option key={role}>{role}</option>
                    ))}
                  </select>
                </td>
                <td>
                  <Button variant="danger" onPress={() => setRemoving(member)} aria-label={`Remove ${member.email}`}>
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryContent>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {candidates.length > 0 && (
        <AccountForm onSubmit={add} label="Add member" className="row account-form-inline account-form-spaced">
          <label className="field">
            <span className="field-label">User</span>
            <select name="user_id" className="input">
              {candidates.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name} ({user.email})
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Role</span>
            <select name="role" className="input" defaultValue="editor">
              {roles.map((role) => (
                <option key={role}>{role}</option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="primary">
            Add member
          </Button>
        </AccountForm>
      )}
      <ConfirmDialog
        isOpen={removing !== null}
        title="Remove member?"
        message={`${removing?.email ?? ''} loses access to this space.`}
        confirmLabel="Remove"
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
