import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../layout/not-found-page';
import { useIsOwner } from './account-api';
import { KeysPage } from './keys-page';
import { PasswordPage } from './password-page';
import { SpaceSettingsPage } from './space-settings-page';
import { SpacesAdminPage } from './spaces-admin-page';
import { UsersPage } from './users-page';

/** /account/…: owner-only pages are not routes at all for anyone else (not found, never half-broken). */
export function AccountRoutes() {
  const owner = useIsOwner();
  return (
    <Routes>
      <Route index element={<PasswordPage />} />
      <Route path="keys" element={<KeysPage />} />
      {owner && <Route path="users" element={<UsersPage />} />}
      {owner && <Route path="spaces" element={<SpacesAdminPage />} />}
      {owner && <Route path="spaces/:sid" element={<SpaceSettingsPage />} />}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
