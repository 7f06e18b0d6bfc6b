import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { switchSession } from '../api/queries';
import type { User } from '../api/types';
import { Button } from '../ui/button';
import { NotificationsBell } from './notifications-bell';

/** The header (brand, who is signed in, sign out) around every signed-in page. */
export function AppShell({ user, children }: { user: User; children: ReactNode }) {
  const queryClient = useQueryClient();
  const signOut = async () => {
    await api.POST('/api/auth/logout');
    switchSession(queryClient, null);
  };
  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Tabula
        </Link>
        <div className="topbar-user">
          <NotificationsBell />
          <Link to="/account" className="topbar-link">
            Account
          </Link>
          <span className="user-name" title={user.email}>
            {user.name || user.email}
          </span>
          <Button variant="quiet" onPress={signOut}>
            Sign out
          </Button>
        </div>
      </header>
      {children}
    </div>
  );
}
