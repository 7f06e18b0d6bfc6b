import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, test, type TabulaServer } from './tabula-server.js';

// One server for the file: later steps use what earlier ones made (the user, the new password).
test.describe.configure({ mode: 'serial' });

const newUser = { email: 'grace@example.com', name: 'Grace Hopper', password: '' };
const newOwnerPassword = 'a-brand-new-owner-password';

async function signInAs(page: Page, tabula: TabulaServer, email: string, password: string): Promise<void> {
  await page.goto(tabula.baseUrl + '/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/**
 * The owner's session, signed in once and then reused: every login attempt (and password
 * change) counts towards the login throttle of 10 a minute per e-mail and address, which the
 * other spec files of this worker's server also spend.
 */
let ownerCookies: Awaited<ReturnType<ReturnType<Page['context']>['cookies']>> | null = null;
async function asOwner(page: Page, tabula: TabulaServer, path = '/'): Promise<void> {
  if (ownerCookies) await page.context().addCookies(ownerCookies);
  else {
    await signInAs(page, tabula, tabula.email, tabula.password);
    ownerCookies = await page.context().cookies();
  }
  await page.goto(tabula.baseUrl + path);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

test.describe('account pages', () => {
  test('the owner creates a user: the generated password is shown once, with a copy button', async ({ page, tabula }) => {
    await asOwner(page, tabula);
    await expect(page.getByRole('button', { name: 'New space' })).toBeVisible();
    await page.getByRole('link', { name: 'Account' }).click();
    await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Users' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Users' }).click();
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByLabel('E-mail').fill(newUser.email);
    await form.getByLabel('Name').fill(newUser.name);
    await form.getByRole('button', { name: 'Create user' }).click();
    const shown = page.getByRole('region', { name: `Password of ${newUser.email}` });
    await expect(shown).toBeVisible();
    await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
    newUser.password = (await shown.getByTestId('shown-once-value').textContent())!.trim();
    expect(newUser.password.length).toBeGreaterThanOrEqual(8);
    await expect(page.getByRole('cell', { name: newUser.email, exact: true })).toBeVisible();
    await screenshot(page, 'account-users');
    await expectAccessible(page, 'the users page');

    // The same e-mail again: the server's error is shown next to the e-mail field.
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
    await form.getByLabel('E-mail').fill(newUser.email);
    await form.getByLabel('Name').fill('Someone else');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect(form.getByRole('textbox', { name: 'E-mail' })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.locator('.field', { has: page.getByRole('textbox', { name: 'E-mail' }) }).locator('.field-error')).toContainText(/taken|exists|already/i);
    await screenshot(page, 'account-users-error');
  });

  test('the owner manages spaces: create, members and roles, storage form, delete with a typed confirmation', async ({ page, tabula }) => {
    await asOwner(page, tabula, '/account/spaces');
    const create = page.getByRole('form', { name: 'New space' });
    await create.getByLabel('Name').fill('Research');
    await create.getByRole('button', { name: 'Create space' }).click();
    await page.getByRole('list', { name: 'Spaces' }).getByRole('link', { name: 'Research' }).click();
    await expect(page.getByRole('heading', { name: 'Space Research' })).toBeVisible();

    const members = page.getByRole('form', { name: 'Add member' });
    await members.getByLabel('User').selectOption({ label: `${newUser.name} (${newUser.email})` });
    await members.getByLabel('Role').selectOption('reader');
    await members.getByRole('button', { name: 'Add member' }).click();
    const role = page.getByLabel(`Role of ${newUser.email}`);
    await expect(role).toHaveValue('reader');
    await role.selectOption('editor');
    await expect.poll(async () => (await tabula.api<{ user_id: number; role: string }[]>(`/api/space/${await spaceId(tabula, 'Research')}/members/list`)).map((m) => m.role)).toEqual(['editor']);

    // Storage: S3 asks for its settings; secret inputs start empty. A bad endpoint is refused next to its field.
    const storage = page.getByRole('form', { name: 'File storage' });
    await storage.getByLabel('Kind').selectOption('s3');
    await storage.getByLabel('Endpoint (empty: AWS)').fill('ftp://nope');
    await storage.getByLabel('Region').fill('eu-west-1');
    await storage.getByLabel('Bucket').fill('tabula');
    await storage.getByLabel('Access key id').fill('AKIAEXAMPLE');
    await storage.getByLabel('Secret access key').fill('example-secret');
    await storage.getByRole('button', { name: 'Save storage' }).click();
    await expect(storage.getByRole('textbox', { name: 'Endpoint (empty: AWS)' })).toHaveAttribute('aria-invalid', 'true');
    await expect(storage.locator('.field-error')).toContainText('Invalid storage.endpoint');
    await screenshot(page, 'account-space');
    await expectAccessible(page, 'the space settings page');

    await storage.getByLabel('Endpoint (empty: AWS)').fill('https://s3.example.com');
    await expect(storage.locator('.field-error')).toHaveCount(0); // gone as the field was edited, before the press
    await storage.getByRole('button', { name: 'Save storage' }).click();
    await expect(storage.getByRole('status')).toHaveText('Storage saved.');
    // Saved: the secrets are now stored, never shown; their inputs say an empty one keeps them.
    await page.reload();
    await expect(storage.getByLabel('Secret access key')).toHaveValue('');
    await expect(storage.getByText('Leave empty to keep.').first()).toBeVisible();
    await storage.getByLabel('Bucket').fill('tabula-2');
    await storage.getByRole('button', { name: 'Save storage' }).click();
    await expect(storage.getByRole('status')).toHaveText('Storage saved.');

    // Delete: a wrong name does nothing; the exact name deletes.
    const remove = page.getByRole('form', { name: 'Delete space' });
    await remove.getByLabel('Type “Research” to confirm').fill('research');
    await remove.getByRole('button', { name: 'Delete space' }).click();
    await expect(remove.getByRole('alert')).toContainText('exactly');
    await remove.getByLabel('Type “Research” to confirm').fill('Research');
    await remove.getByRole('button', { name: 'Delete space' }).click();
    await expect(page.getByRole('heading', { name: 'Spaces', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Research' })).toHaveCount(0);
    await expectAccessible(page, 'the spaces page of the account');
  });

  test('the owner creates an API key (secret shown once), it works with a plain fetch, then is revoked (401)', async ({ page, tabula }) => {
    await asOwner(page, tabula, '/account/keys');
    const form = page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Name').fill('Laptop');
    await form.getByLabel('Read-only').check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('region', { name: 'Key Laptop' });
    await expect(shown).toBeVisible();
    const secret = (await shown.getByTestId('shown-once-value').textContent())!.trim();
    expect(secret).toMatch(/^tbk_/);
    await expect(page.getByRole('cell', { name: 'Laptop', exact: true })).toBeVisible();
    await screenshot(page, 'account-keys');
    await expectAccessible(page, 'the keys page');

    const listSpaces = () => fetch(`${tabula.baseUrl}/api/spaces/list`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await listSpaces()).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke Laptop' }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectAccessible(page, 'the revoke confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('cell', { name: 'Laptop', exact: true })).toHaveCount(0);
    expect((await listSpaces()).status).toBe(401);
  });

  test('a user who is not the owner sees their password and own keys only', async ({ page, tabula }) => {
    await signInAs(page, tabula, newUser.email, newUser.password);
    await expect(page.getByRole('heading', { name: 'Spaces' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New space' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Account' }).click();
    const nav = page.getByRole('navigation', { name: 'Account' });
    await expect(nav.getByRole('link', { name: 'Password' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'API keys' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Spaces' })).toHaveCount(0);
    await expectAccessible(page, "a user's password page");
    await nav.getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('form', { name: 'New key' })).toBeVisible();
    await expect(page.getByText('Kind')).toHaveCount(0);
    await expect(page.getByRole('cell', { name: 'Initial account key' })).toHaveCount(0);
    await screenshot(page, 'account-keys-user');
    await expectAccessible(page, "a user's keys page");
    await page.goto(tabula.baseUrl + '/account/users');
    await expect(page.getByRole('form', { name: 'New user' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
  });

  test('the owner changes their password (a wrong current one is said next to it) and signs in with the new one', async ({ page, tabula }) => {
    await asOwner(page, tabula, '/account');
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not-the-password');
    await form.getByLabel('New password').fill(newOwnerPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.locator('.field-error')).toHaveText('Current password is incorrect');
    await screenshot(page, 'account-password-error');
    await expectAccessible(page, 'the password page with its error');

    await form.getByLabel('Current password').fill(tabula.password);
    await form.getByLabel('New password').fill(newOwnerPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByRole('status')).toContainText('Password changed');
    await signOut(page);
    await signInAs(page, tabula, tabula.email, newOwnerPassword);
    await expect(page.getByRole('heading', { name: 'Spaces' })).toBeVisible();

    // Back to the printed password: the server is shared with the other spec files of this worker.
    await page.goto(tabula.baseUrl + '/account');
    await form.getByLabel('Current password').fill(newOwnerPassword);
    await form.getByLabel('New password').fill(tabula.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByRole('status')).toContainText('Password changed');
  });
});

async function spaceId(tabula: TabulaServer, name: string): Promise<number> {
  const spaces = await tabula.api<{ id: number; name: string }[]>('/api/spaces/list');
  return spaces.find((space) => space.name === name)!.id;
}
