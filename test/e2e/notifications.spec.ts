import { setUpRecords } from './record-fixtures.js';
import { expect, expectAccessible, screenshot, signIn, test } from './tabula-server.js';

test.describe.configure({ mode: 'serial' });

test('A mentions B in a comment; B sees it in the bell, opens the record at the comment; mark read, mark all read', async ({ page, browser, tabula }) => {
  const { space, table, grace, records } = await setUpRecords(tabula, 'Mentions');
  const acme = records[0];
  const tableUrl = `${tabula.baseUrl}/space/${space.id}/table/${table.id}`;

  // A (the owner) mentions Grace from the record drawer, picking her from the suggestions.
  await signIn(page, tabula);
  await page.goto(`${tableUrl}?record=${acme.id}`);
  const drawer = page.getByRole('dialog', { name: 'Acme' });
  const box = drawer.getByLabel('Comment', { exact: true });
  await box.pressSequentially('Can you look, @hop');
  await drawer.getByRole('option', { name: /Grace Hopper/ }).click();
  await box.pressSequentially('?');
  await drawer.getByRole('button', { name: 'Post comment' }).click();
  await expect(drawer.locator('.mention')).toHaveText('@Grace Hopper');
  const [mention] = await tabula.api<{ id: number; content: string }[]>(`/api/table/${table.id}/record/${acme.id}/comments/get`);
  expect(mention.content).toBe(`Can you look, @{${grace.id}:Grace Hopper} ?`);

  // B, in a browser of her own.
  const context = await browser.newContext();
  const pageB = await context.newPage();
  try {
    await signIn(pageB, tabula, grace.password, grace.email);
    const bell = pageB.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toHaveAccessibleName('Notifications 1 unread');
    await bell.click();
    const list = pageB.getByRole('dialog', { name: 'Notifications' });
    const item = list.getByRole('button', { name: /^(Unread: )?Admin mentioned you on record \d+ in Deals/ });
    await expect(item).toBeVisible();
    await screenshot(pageB, 'notifications-bell');
    await expectAccessible(pageB, 'the notifications list');
    await item.click();
    await expect(pageB).toHaveURL(`${tableUrl}/record/${acme.id}?comment=${mention.id}`);
    const comment = pageB.locator(`#comment-${mention.id}`);
    await expect(comment).toBeFocused();
    await expect(comment).toBeInViewport();
    await expect(comment).toContainText('Can you look, @Grace Hopper ?');
    await expect(bell).toHaveAccessibleName('Notifications');
    await screenshot(pageB, 'notification-opened');

    // Grace follows the record now: two more comments (by the account key) reach her bell.
    await tabula.api(`/api/table/${table.id}/record/${acme.id}/comments/create`, { content: 'First follow-up' });
    await tabula.api(`/api/table/${table.id}/record/${acme.id}/comments/create`, { content: 'Second follow-up' });
    await pageB.reload();
    await expect(bell).toHaveAccessibleName('Notifications 2 unread');
    await bell.click();
    await expect(list.getByRole('button', { name: /^(Unread: )?API: Account key commented on record/ })).toHaveCount(2);
    await list.getByRole('button', { name: /^Mark read:/ }).first().click();
    await expect(bell).toHaveAccessibleName('Notifications 1 unread');
    await list.getByRole('button', { name: 'Mark all read' }).click();
    await expect(bell).toHaveAccessibleName('Notifications');
    const unread = await pageB.request.post(`${tabula.baseUrl}/api/notifications/list`, { data: { filter: 'unread' } });
    expect(await unread.json()).toEqual([]);
  } finally {
    await context.close();
  }
});
