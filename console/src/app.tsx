import { Route, Routes } from 'react-router';
import { AccountRoutes } from './account/account-routes';
import { useMe } from './api/queries';
import { SignInPage } from './auth/sign-in-page';
import { AppShell } from './layout/app-shell';
import { NotFoundPage } from './layout/not-found-page';
import { SpacePage } from './spaces/space-page';
import { SpacesPage } from './spaces/spaces-page';
import { RecordDrawer } from './record/record-drawer';
import { RecordPage } from './record/record-page';
import { TrashPage } from './record/trash-page';
import { TableSettingsPage } from './tables/table-settings-page';
import { TablePage } from './tables/table-page';
import { LoadingState } from './ui/states';

/** Signed out, every address shows the sign-in form and stays the address it was. */
export function App() {
  const me = useMe();
  if (me.isPending) return <LoadingState label="Loading Tabula" />;
  if (!me.data) return <SignInPage />;
  return (
    <AppShell user={me.data.user}>
      <Routes>
        <Route path="/" element={<SpacesPage />} />
        <Route path="/space/:sid" element={<SpacePage />} />
        <Route path="/space/:sid/table/:tid" element={<TablePage />} />
        <Route path="/space/:sid/table/:tid/view/:vid" element={<TablePage />} />
        <Route path="/space/:sid/table/:tid/settings" element={<TableSettingsPage />} />
        <Route path="/space/:sid/table/:tid/record/:rid" element={<RecordPage />} />
        <Route path="/space/:sid/table/:tid/trash" element={<TrashPage />} />
        <Route path="/account/*" element={<AccountRoutes />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
      <RecordDrawer />
    </AppShell>
  );
}
