import { beforeAll, describe, expect, it } from 'vitest';
import { stripControlCharacters } from '../../src/shared/display-name.js';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World } from '../factories.js';

/**
 * Display names carry no control characters (docs/decisions.md, "Display names without control
 * characters"): user names, key names and e-mail senders are cleaned when saved, so no comment
 * author, notification or mail header shows a CR/LF or a bidirectional override.
 */
describe('display names without control characters', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;
  let recordId: number;
  let reader: { id: number; key: string };

  const post = (url: string, body: unknown, key = world.accountKey) => call(ctx, 'POST', url, { key, body });

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Names')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'T', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    recordId = (await post(`/api/table/${tableId}/records/create`, { data: {} })).body.id;
    const user = await createUser(ctx, world, 'Reader');
    await addMember(ctx, world, spaceId, user.id, 'editor');
    reader = { id: user.id, key: (await createKey(ctx, { userId: user.id })).key };
  });

  it('turns each run of control characters into one space and trims', () => {
    expect(stripControlCharacters('Eve\r\nBcc: all@example.com')).toBe('Eve Bcc: all@example.com');
    expect(stripControlCharacters('\tAda\u0000\u001b[31m Lovelace\u007f\u0085\u2028')).toBe('Ada [31m Lovelace');
    expect(stripControlCharacters('evil\u202Etxt.exe\u2066x\u2069')).toBe('evil txt.exe x');
    // Joiners and accents are text, not controls.
    expect(stripControlCharacters('👩‍💻 Zoë')).toBe('👩‍💻 Zoë');
  });

  it("an e-mail comment's from.name loses its CR/LF in user_name, the e-mail and the mentioned user's notification", async () => {
    const created = await post(`/api/table/${tableId}/record/${recordId}/comments/createEmailComment`, {
      from: { email: 'eve@example.com', name: 'Eve\r\nBcc: all@example.com\r\n' },
      subject: 'Hi',
      body: `Hello @{${reader.id}:Reader}`,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.user_name).toBe('Email: Eve Bcc: all@example.com <eve@example.com>');
    expect(created.body.email.from).toEqual({ email: 'eve@example.com', name: 'Eve Bcc: all@example.com' });
    const notifications = (await post('/api/notifications/list', { limit: 200 }, reader.key)).body as Array<{ comment_id: number; actor: { name: string } }>;
    expect(notifications.find((n) => n.comment_id === created.body.id)?.actor.name).toBe('Email: Eve Bcc: all@example.com <eve@example.com>');
  });

  it('a from.name of control characters only counts as no name', async () => {
    const created = await post(`/api/table/${tableId}/record/${recordId}/comments/createEmailComment`, { from: { email: 'eve@example.com', name: '\r\n' }, subject: 'Hi' });
    expect(created.body.user_name).toBe('Email: eve@example.com');
  });

  it('user names are cleaned on create and on update; a name of control characters only is refused', async () => {
    const user = await createUser(ctx, world, 'Ada\r\nLovelace\u202E');
    expect(user.name).toBe('Ada Lovelace');
    const updated = await ctx.container.services.users.updateUser(user.id, { name: 'Grace\nHopper' });
    expect(updated.name).toBe('Grace Hopper');
    await expect(ctx.container.services.users.updateUser(user.id, { name: '\r\n\t' })).rejects.toThrow('Invalid name: must be 1 to 200 characters');
  });

  it("key names are cleaned on create, and a key's comments show the clean name", async () => {
    const key = await createKey(ctx, { accountId: world.accountId, name: 'ci\r\nrobot' });
    expect(key.name).toBe('ci robot');
    const comment = await post(`/api/table/${tableId}/record/${recordId}/comments/create`, { content: 'built' }, key.key);
    expect(comment.body.user_name).toBe('API: ci robot');
    await expect(createKey(ctx, { accountId: world.accountId, name: '\u0007' })).rejects.toThrow('Invalid key name: must be 1 to 200 characters');
  });
});
