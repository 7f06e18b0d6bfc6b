import fs from 'node:fs';
import { dropPng, setUpRecords, tinyPdf } from './record-fixtures.js';
import { expect, expectAccessible, screenshot, signIn, test } from './tabula-server.js';

test.describe.configure({ mode: 'serial' });

interface StoredRecord {
  id: number;
  data: Record<string, unknown>;
}

test('the record drawer and page: open, edit every field, files, comments with a mention, history, delete and restore', async ({ page, tabula }) => {
  const { space, table, records } = await setUpRecords(tabula, 'Records');
  const [acme, globex, initech] = records;
  // An e-mail that arrived for Acme (an inbound gateway posts it with its key).
  await tabula.api(`/api/table/${table.id}/record/${acme.id}/comments/createEmailComment`, { from: { email: 'client@example.com', name: 'Client' }, to: ['deals@example.com'], subject: 'Re: amount', body: '<p>Agreed, <b>go ahead</b>.</p><script>alert(1)</script>' });
  const tableUrl = `${tabula.baseUrl}/space/${space.id}/table/${table.id}`;
  const getRecord = (id: number) => tabula.api<StoredRecord>(`/api/table/${table.id}/record/${id}/get`);

  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, tabula);
  await page.goto(tableUrl);
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();

  // From the grid: the row's "open record" link; Esc closes, focus goes back.
  await page.getByRole('link', { name: 'Open record 1' }).click();
  const drawer = page.getByRole('dialog', { name: 'Acme' });
  await expect(drawer).toBeVisible();
  expect(new URL(page.url()).searchParams.get('record')).toBe(String(acme.id));
  await expect(drawer.getByText('Name', { exact: true })).toBeVisible();
  await expect(drawer.getByText('Received e-mail')).toBeVisible();
  await screenshot(page, 'record-drawer');
  await expectAccessible(page, 'the record drawer');
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get('record')).toBeNull();

  // By keyboard: Shift+Enter on a row of the grid; Space too.
  await page.getByRole('grid').focus();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+Enter');
  await expect(page.getByRole('dialog', { name: 'Globex' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Globex' }).getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('grid')).toBeFocused();
  await page.keyboard.press(' ');
  await expect(page.getByRole('dialog', { name: 'Globex' })).toBeVisible();
  await page.keyboard.press('Escape');

  // By address: the drawer over the table, and the record's own page.
  await page.goto(`${tableUrl}?record=${acme.id}`);
  await expect(drawer).toBeVisible();
  await page.goto(`${tableUrl}/record/${acme.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Acme' })).toBeVisible();
  await page.goto(`${tableUrl}?record=${acme.id}`);

  // Every field with the grid's editors.
  await drawer.getByRole('button', { name: 'Edit Name' }).click();
  await drawer.getByLabel('Name', { exact: true }).fill('Acme Corp');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Acme Corp' })).toBeVisible();
  const record = page.getByRole('dialog', { name: 'Acme Corp' });
  await record.getByRole('button', { name: 'Edit Amount' }).click();
  await record.getByLabel('Amount', { exact: true }).fill('not a number');
  await page.keyboard.press('Enter');
  await expect(record.getByRole('alert').filter({ hasText: 'is not a number' })).toBeVisible();
  await record.getByLabel('Amount', { exact: true }).fill('1250.5');
  await page.keyboard.press('Enter');
  await expect(record.getByRole('button', { name: 'Edit Amount' })).toContainText('1250.50');
  await record.getByRole('button', { name: 'Edit Stage' }).click();
  await record.getByLabel('Stage', { exact: true }).selectOption('won');
  await page.keyboard.press('Enter');
  await expect(record.getByRole('button', { name: 'Edit Stage' })).toContainText('won');
  await record.getByRole('checkbox', { name: 'Closed' }).check();
  await record.getByRole('button', { name: 'Edit Notes' }).click();
  await record.getByLabel('Notes', { exact: true }).fill('First line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  await page.keyboard.press('Enter');
  await expect(record.getByRole('button', { name: 'Edit Notes' })).toContainText('second line');
  await expect.poll(async () => (await getRecord(acme.id)).data).toMatchObject({ name: 'Acme Corp', amount: 1250.5, stage: 'won', closed: true, notes: 'First line\nsecond line' });

  // Files: a 5 MB image dropped, with progress, then its preview; a PDF by the picker, previewed; download; delete.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('progress[aria-label^="Uploading"]')) seen.push((bar as HTMLProgressElement).value.toFixed(2));
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await dropPng(page, '.drop-zone', 'big.png', 5 * 1024 * 1024);
  // The preview is the server's thumbnail, in a button opening the full image.
  const opener = record.getByRole('button', { name: 'Open big.png' });
  const preview = opener.getByAltText('Preview of big.png');
  await expect(preview).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => preview.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(1);
  expect(await preview.getAttribute('src')).toContain('/files/thumbnail?');
  expect((await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)).length).toBeGreaterThan(0);
  const pdfFile = { name: 'offer.pdf', mimeType: 'application/pdf', buffer: tinyPdf() };
  const chooser = page.waitForEvent('filechooser');
  await record.getByRole('button', { name: 'Choose files for Files' }).click();
  await (await chooser).setFiles(pdfFile);
  const pdfPreview = record.getByRole('img', { name: 'Preview of offer.pdf' });
  await expect(pdfPreview).toBeVisible();
  // pdf.js drew the page: the canvas took the page's 96-pixel width (a fresh canvas is 300).
  await expect.poll(() => pdfPreview.evaluate((canvas) => (canvas as HTMLCanvasElement).width), { timeout: 20_000 }).toBe(96);
  await screenshot(page, 'record-files');
  // Pressing the preview opens the full image (the download itself) over the drawer; Close gives the focus back.
  await opener.click();
  const viewer = page.getByRole('dialog', { name: 'big.png' });
  const full = viewer.getByRole('img', { name: 'big.png' });
  await expect(full).toBeVisible();
  expect(await full.getAttribute('src')).toContain('/files/download?');
  await expect.poll(() => full.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(1);
  await screenshot(page, 'record-image-viewer');
  await expectAccessible(page, 'the full image over the record');
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toHaveCount(0);
  await expect(opener).toBeFocused();
  const download = page.waitForEvent('download');
  await record.getByRole('link', { name: 'Download offer.pdf' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('offer.pdf');
  expect(fs.readFileSync(await saved.path()).equals(pdfFile.buffer)).toBe(true);
  await record.getByRole('button', { name: 'Delete offer.pdf' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete file' }).click();
  await expect(record.getByRole('img', { name: 'Preview of offer.pdf' })).toHaveCount(0);
  const files = (await getRecord(acme.id)).data.files as { name: string; size: number }[];
  expect(files.map((file) => file.name)).toEqual(['big.png']);
  expect(files[0].size).toBeGreaterThan(5 * 1024 * 1024);

  // Subscribe and unsubscribe.
  await record.getByRole('button', { name: 'Subscribe' }).click();
  await expect(record.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await record.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(record.getByRole('button', { name: 'Subscribe' })).toBeVisible();

  // The e-mail comment: received mail, its text only (no markup, no script), its .eml.
  const mail = record.getByRole('listitem', { name: /Comment by Email: Client/ });
  await expect(mail).toContainText('Subject: Re: amount');
  await expect(mail).toContainText('Agreed, go ahead.');
  const eml = page.waitForEvent('download');
  await mail.getByRole('button', { name: 'Download message.eml' }).click();
  expect((await eml).suggestedFilename()).toBe('message.eml');

  // A comment with an @mention picked from the suggestions, and an attachment.
  const box = record.getByLabel('Comment', { exact: true });
  await box.fill('');
  await box.pressSequentially('Please check @Gra');
  await expect(record.getByRole('option', { name: /Grace Hopper/ })).toBeVisible();
  await screenshot(page, 'record-mention');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('Please check @Grace Hopper ');
  await box.pressSequentially('the amount');
  const attach = page.waitForEvent('filechooser');
  await record.getByRole('button', { name: 'Attach file' }).click();
  await (await attach).setFiles({ name: 'quote.txt', mimeType: 'text/plain', buffer: Buffer.from('Quote: 1250.50') });
  await expect(record.getByRole('list', { name: 'Attached files' })).toContainText('quote.txt');
  await record.getByRole('button', { name: 'Post comment' }).click();
  const mine = record.getByRole('listitem', { name: /Comment by/ }).filter({ hasText: 'Please check' });
  await expect(mine.locator('.mention')).toHaveText('@Grace Hopper');
  await expect(mine.getByRole('button', { name: 'Download quote.txt' })).toBeVisible();
  const comments = await tabula.api<{ id: number; content: string }[]>(`/api/table/${table.id}/record/${acme.id}/comments/get`);
  expect(comments.at(-1)!.content).toMatch(/^Please check @\{\d+:Grace Hopper\} the amount$/);
  // A session author follows the record.
  await expect(record.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();

  // Edit and delete one's own comment.
  await mine.getByRole('button', { name: 'Edit' }).click();
  await mine.getByLabel('Edit comment').fill('Please check @Grace Hopper the amount today');
  await mine.getByRole('button', { name: 'Save comment' }).click();
  await expect(record.getByRole('listitem', { name: /Comment by/ }).filter({ hasText: 'today' })).toContainText('(edited)');
  expect((await tabula.api<{ content: string }[]>(`/api/table/${table.id}/record/${acme.id}/comments/get`)).at(-1)!.content).toMatch(/^Please check @\{\d+:Grace Hopper\} the amount today$/);
  await box.fill('A comment to delete');
  await record.getByRole('button', { name: 'Post comment' }).click();
  const doomed = record.getByRole('listitem', { name: /Comment by/ }).filter({ hasText: 'A comment to delete' });
  await doomed.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete comment' }).click();
  await expect(doomed).toHaveCount(0);
  // Nobody else's comment offers Edit.
  await expect(mail.getByRole('button', { name: 'Edit' })).toHaveCount(0);

  // The history: newest first, who and what changed, before → after.
  const history = record.getByRole('list', { name: 'Changes, newest first' });
  await expect(history.getByRole('listitem').first()).toContainText('deleted a comment');
  const rename = history.getByRole('listitem').filter({ hasText: 'changed Name' });
  await expect(rename).toContainText('Acme → Acme Corp');
  await screenshot(page, 'record-history');
  await expectAccessible(page, 'the record drawer with files and comments');
  await page.keyboard.press('Escape');

  // The thread pages back: the newest 20 first, older ones on demand.
  for (let index = 1; index <= 22; index += 1) await tabula.api(`/api/table/${table.id}/record/${initech.id}/comments/create`, { content: `Note ${index}` });
  await page.goto(`${tableUrl}?record=${initech.id}`);
  const third = page.getByRole('dialog', { name: 'Initech' });
  const notes = third.getByRole('listitem', { name: /Comment by/ });
  await expect(notes).toHaveCount(20);
  await expect(notes.first()).toContainText('Note 3');
  await third.getByRole('button', { name: 'Show older comments' }).click();
  await expect(notes).toHaveCount(22);
  await expect(notes.first()).toContainText('Note 1');
  await expect(third.getByRole('button', { name: 'Show older comments' })).toHaveCount(0);

  // Delete from the drawer and restore there; delete another and restore it from the trash.
  await third.getByRole('button', { name: 'Delete record' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete record' }).click();
  const deleted = page.getByRole('dialog', { name: `Record ${initech.id} is deleted` });
  await expect(deleted).toBeVisible();
  await deleted.getByRole('button', { name: 'Restore record' }).click();
  await expect(page.getByRole('dialog', { name: 'Initech' })).toBeVisible();
  await page.keyboard.press('Escape');
  await tabula.api(`/api/table/${table.id}/record/${globex.id}/delete`, {});
  await page.goto(tableUrl);
  await page.getByRole('link', { name: 'Trash' }).click();
  await expect(page.getByRole('heading', { name: 'Deals: trash' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Globex' })).toContainText('API: Account key');
  await screenshot(page, 'record-trash');
  await expectAccessible(page, 'the trash');
  await page.getByRole('button', { name: 'Restore Globex' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Restored Globex.' })).toBeVisible();
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  expect((await getRecord(globex.id)).data.name).toBe('Globex');
});
