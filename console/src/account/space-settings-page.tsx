import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { keys, useSpace } from '../api/queries';
import { Button } from '../ui/button';
import { ErrorState, LoadingState } from '../ui/states';
import { AccountField, AccountForm } from './account-form';
import { AccountPage } from './account-nav';
import { MembersSection } from './members-section';
import { StorageForm } from './storage-form';

/** The owner: one space's name, file storage, members, and its deletion (typing its name to confirm). */
export function SpaceSettingsPage() {
  const sid = Number(useParams().sid);
  const space = useSpace(sid);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [renamed, setRenamed] = useState(false);
  const rename = async (form: FormData) => {
    setRenamed(false);
    await unwrap(api.POST('/api/space/{sid}/update', { params: { path: { sid } }, body: { name: String(form.get('name')) } }));
    await Promise.all([queryClient.invalidateQueries({ queryKey: keys.space(sid) }), queryClient.invalidateQueries({ queryKey: keys.spaces })]);
    setRenamed(true);
  };
  const remove = async (form: FormData) => {
    if (String(form.get('confirm')) !== space.data?.name) throw new Error('Type the space’s name exactly to delete it.');
    await unwrap(api.POST('/api/space/{sid}/delete', { params: { path: { sid } } }));
    queryClient.removeQueries({ queryKey: keys.space(sid) });
    await queryClient.invalidateQueries({ queryKey: keys.spaces });
    await navigate('/account/spaces');
  };
  if (space.isPending) return <LoadingState label="Loading space" />;
  if (space.isError) return <ErrorState error={space.error} />;
  return (
    <AccountPage title={`Space ${space.data.name}`}>
      <section aria-labelledby="rename-heading">
        <h2 id="rename-heading">Name</h2>
        <AccountForm onSubmit={rename} label="Rename space" className="row account-form-inline">
          <AccountField label="Name" name="name" defaultValue={space.data.name} isRequired />
          <Button type="submit" variant="primary">
            Rename
          </Button>
          {renamed && <p role="status">Renamed.</p>}
        </AccountForm>
      </section>
      <section aria-labelledby="storage-heading">
        <h2 id="storage-heading">File storage</h2>
        <StorageForm sid={sid} storage={space.data.storage as Record<string, unknown> & { kind: string }} />
      </section>
      <MembersSection sid={sid} />
      <section aria-labelledby="delete-heading" className="danger-zone">
        <h2 id="delete-heading">Delete space</h2>
        <p>Deletes the space, its tables and their records, and its member list. This cannot be undone.</p>
        <AccountForm onSubmit={remove} label="Delete space" className="row account-form-inline">
          <AccountField label={`Type “${space.data.name}” to confirm`} name="confirm" autoComplete="off" />
          <Button type="submit" variant="danger">
            Delete space
          </Button>
        </AccountForm>
      </section>
    </AccountPage>
  );
}
