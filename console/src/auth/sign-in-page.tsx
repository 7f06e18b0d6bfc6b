import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api, ApiError, unwrap } from '../api/client';
import { switchSession } from '../api/queries';
import { Button } from '../ui/button';
import { TextInput } from '../ui/text-input';

/** The sign-in form every signed-out address shows; a wrong password is said in words. */
export function SignInPage() {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const signedIn = await unwrap(api.POST('/api/auth/login', { body: { email: String(form.get('email')), password: String(form.get('password')) } }));
      switchSession(queryClient, signedIn);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Could not reach the server; try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark" />
          Tabula
        </div>
        <h1>Sign in</h1>
        <Form onSubmit={submit} className="stack">
          <TextInput label="E-mail" name="email" type="email" autoComplete="username" isRequired autoFocus />
          <TextInput label="Password" name="password" type="password" autoComplete="current-password" isRequired />
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <Button type="submit" variant="primary" isDisabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </Form>
      </div>
    </main>
  );
}
