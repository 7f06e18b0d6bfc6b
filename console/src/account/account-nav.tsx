import { NavLink } from 'react-router';
import { useIsOwner } from './account-api';

/** The account pages' tabs; owner-only ones are absent for everyone else. */
export function AccountNav() {
  const owner = useIsOwner();
  return (
    <nav className="account-nav" aria-label="Account">
      <NavLink to="/account" end>
        Password
      </NavLink>
      <NavLink to="/account/keys">API keys</NavLink>
      {owner && <NavLink to="/account/users">Users</NavLink>}
      {owner && <NavLink to="/account/spaces">Spaces</NavLink>}
    </nav>
  );
}

export function AccountPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="page account-page">
      <div className="page-header">
        <h1>{title}</h1>
      </div>
      <AccountNav />
      {children}
    </main>
  );
}
