import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Button } from '../ui/button';
import { AccountField, AccountForm } from './account-form';
import { AccountPage } from './account-nav';

/** Any signed-in user: a new password, proving the current one (other sessions end). */
export function PasswordPage() {
  const [done, setDone] = useState(false);
  const change = async (form: FormData, element: HTMLFormElement) => {
    setDone(false);
    await unwrap(api.POST('/api/auth/password', { body: { current: String(form.get('current')), new: String(form.get('new')) } }));
    element.reset();
    setDone(true);
  };
  return (
    <AccountPage title="Account">
      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <AccountForm onSubmit={change} errorCodes={{ invalid_current_password: 'current', invalid_parameters: 'new' }} label="Change password">
          <AccountField label="Current password" name="current" type="password" autoComplete="current-password" isRequired />
          <AccountField label="New password" name="new" type="password" autoComplete="new-password" description="At least 8 characters." isRequired />
          <Button type="submit" variant="primary">
            Change password
          </Button>
          {done && <p role="status">Password changed. Your other sessions were signed out.</p>}
        </AccountForm>
      </section>
    </AccountPage>
  );
}
