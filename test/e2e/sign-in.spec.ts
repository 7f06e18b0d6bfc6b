import { expect, expectAccessible, screenshot, signIn, test } from './tabula-server.js';

test.describe('signing in and out', () => {
  test('any address shows the sign-in form when signed out, with labelled fields', async ({ page, tabula }) => {
    await page.goto(`${tabula.baseUrl}/space/1/table/2`);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('E-mail')).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();
    await screenshot(page, 'sign-in');
    await expectAccessible(page, 'the sign-in page');
  });

  test('a wrong password shows a visible error', async ({ page, tabula }) => {
    await signIn(page, tabula, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await screenshot(page, 'sign-in-error');
    await expectAccessible(page, 'the sign-in page with its error');
  });

  test('the printed first credentials sign in; signing out returns to the form', async ({ page, tabula }) => {
    await signIn(page, tabula);
    await expect(page.getByRole('heading', { name: 'Spaces' })).toBeVisible();
    await expect(page.getByText('Admin')).toBeVisible();
    await screenshot(page, 'home-empty');
    await expectAccessible(page, 'the home page');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });
});
