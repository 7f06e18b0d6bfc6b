import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/shared/secret-box.js';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createTable, createUser, type World } from '../factories.js';

const s3Secret = 'S3-SECRET-wJalrXUtnFEMI-K7MDENG';
const s3AccessKey = 'AKIA-ACCESS-KEY-ID-0001';
const ftpPassword = 'FTP-PASSWORD-hunter2-xyz';
const sftpPassword = 'SFTP-PASSWORD-correct-horse';
/** A real key: private keys are parsed when saved (a PEM RSA key, which ssh2 always reads back). */
const sftpPrivateKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'pkcs1', format: 'pem' } }).privateKey;
const allSecrets = [s3Secret, s3AccessKey, ftpPassword, sftpPassword, sftpPrivateKey];

/** Each storage kind as sent, and as every response must show it (settings without credentials). */
const storageKinds: Array<{ name: string; sent: Record<string, unknown>; shown: Record<string, unknown>; secrets: Record<string, string> }> = [
  { name: 'managed (explicit)', sent: { kind: 'managed' }, shown: { kind: 'managed' }, secrets: {} },
  { name: 'none', sent: { kind: 'none' }, shown: { kind: 'none' }, secrets: {} },
  {
    name: 's3 with every field',
    sent: { kind: 's3', endpoint: 'https://s3.example.com', region: 'eu-west-1', bucket: 'tabula-files', prefix: 'team/', access_key_id: s3AccessKey, secret_access_key: s3Secret },
    shown: { kind: 's3', endpoint: 'https://s3.example.com', region: 'eu-west-1', bucket: 'tabula-files', prefix: 'team/' },
    secrets: { access_key_id: s3AccessKey, secret_access_key: s3Secret },
  },
  {
    name: 'ftp',
    sent: { kind: 'ftp', host: 'ftp.example.com', port: 21, user: 'uploader', password: ftpPassword, secure: true, folder: '/files' },
    shown: { kind: 'ftp', host: 'ftp.example.com', port: 21, user: 'uploader', secure: true, folder: '/files' },
    secrets: { password: ftpPassword },
  },
  {
    name: 'sftp with a password',
    sent: { kind: 'sftp', host: 'sftp.example.com', port: 22, username: 'deploy', password: sftpPassword, folder: '/srv/files' },
    shown: { kind: 'sftp', host: 'sftp.example.com', port: 22, username: 'deploy', folder: '/srv/files' },
    secrets: { password: sftpPassword },
  },
  {
    name: 'sftp with a private key',
    sent: { kind: 'sftp', host: 'sftp.example.com', username: 'deploy', private_key: sftpPrivateKey },
    shown: { kind: 'sftp', host: 'sftp.example.com', username: 'deploy' },
    secrets: { private_key: sftpPrivateKey },
  },
];

describe('spaces', () => {
  const ctx = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createAccount(ctx);
  });

  const db = () => ctx.container.database.db;
  const post = (url: string, body?: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const get = (url: string) => call(ctx, 'GET', url, { key: world.accountKey });
  const storedRow = (spaceId: number) => db().selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirst();
  const spaceCount = async () => (await db().selectFrom('spaces').select('id').execute()).length;
  const physicalTables = async () => new Set((await db().introspection.getTables()).map((t) => t.name));

  describe('create', () => {
    it('answers the space with managed storage when none is given', async () => {
      const response = await post('/api/spaces/create', { name: '  Marketing  ' });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['account_id', 'created_at', 'id', 'name', 'storage']);
      expect(response.body).toMatchObject({ name: 'Marketing', account_id: world.accountId, storage: { kind: 'managed' } });
      expect(response.body.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect((await get(`/api/space/${response.body.id}/get`)).body).toEqual(response.body);
    });

    for (const kind of storageKinds) {
      it(`stores ${kind.name} storage and never answers its credentials`, async () => {
        const created = await post('/api/spaces/create', { name: `Storage ${kind.name}`, storage: kind.sent });
        expect(created.status).toBe(200);
        expect(created.body.storage).toEqual(kind.shown);
        const id = created.body.id;

        const fetched = await get(`/api/space/${id}/get`);
        expect(fetched.body.storage).toEqual(kind.shown);
        const renamed = await post(`/api/space/${id}/update`, { name: `Renamed ${kind.name}` });
        expect(renamed.body.storage).toEqual(kind.shown);
        const listed = await get('/api/spaces/list');
        for (const response of [created, fetched, renamed, listed]) {
          for (const secret of allSecrets) expect(JSON.stringify(response.body)).not.toContain(secret);
        }
      });
    }

    it('keeps credentials encrypted at rest: the database row never holds them in clear, yet they decrypt with TABULA_SECRET', async () => {
      const created = await post('/api/spaces/create', { name: 'Encrypted', storage: storageKinds[2].sent });
      const row = (await storedRow(created.body.id))!;
      for (const secret of allSecrets) expect(row.storage_json).not.toContain(secret);
      const stored = JSON.parse(row.storage_json) as { sealed: string };
      expect(stored.sealed).toMatch(/^v1\./);
      expect(JSON.parse(createSecretBox('test-secret').open(stored.sealed))).toEqual(storageKinds[2].secrets);
    });

    it('keeps sftp private keys and ftp passwords out of the database in clear too', async () => {
      for (const kind of [storageKinds[3], storageKinds[4], storageKinds[5]]) {
        const created = await post('/api/spaces/create', { name: `Encrypted ${kind.name}`, storage: kind.sent });
        const row = (await storedRow(created.body.id))!;
        for (const secret of Object.values(kind.secrets)) expect(row.storage_json).not.toContain(secret);
      }
    });

    const invalidStorage: Array<{ name: string; storage: unknown; message: string }> = [
      { name: 'an unknown kind', storage: { kind: 'dropbox' }, message: 'Invalid storage.kind: must be one of managed, none, s3, ftp, sftp' },
      { name: 'a missing kind', storage: { bucket: 'b' }, message: 'Invalid storage.kind: must be one of managed, none, s3, ftp, sftp' },
      { name: 'a kind named after an object prototype key', storage: { kind: 'toString' }, message: 'Invalid storage.kind: must be one of managed, none, s3, ftp, sftp' },
      { name: 'a missing required key (s3 bucket)', storage: { kind: 's3', region: 'r', access_key_id: 'a', secret_access_key: 's' }, message: 'Invalid storage: bucket is required for kind s3' },
      { name: 'a missing required key (ftp host)', storage: { kind: 'ftp', user: 'u' }, message: 'Invalid storage: host is required for kind ftp' },
      { name: 'an empty required key', storage: { kind: 'ftp', host: '  ', user: 'u' }, message: 'Invalid storage.host: must not be empty' },
      { name: 'sftp with neither password nor private_key', storage: { kind: 'sftp', host: 'h', username: 'u' }, message: 'Invalid storage: sftp needs password or private_key' },
      { name: 'an unknown key', storage: { kind: 'ftp', host: 'h', user: 'u', pass: 'x' }, message: 'Invalid storage: unknown property "pass" for kind ftp' },
      { name: 'an unknown key on managed storage', storage: { kind: 'managed', bucket: 'b' }, message: 'Invalid storage: unknown property "bucket" for kind managed' },
      { name: 'an object prototype key', storage: { kind: 'none', constructor: 'x' }, message: 'Invalid storage: unknown property "constructor" for kind none' },
      { name: 'a port given as a string', storage: { kind: 'ftp', host: 'h', user: 'u', port: '21' }, message: 'Invalid storage.port: must be an integer from 1 to 65535' },
      { name: 'a port out of range', storage: { kind: 'sftp', host: 'h', username: 'u', password: 'p', port: 70000 }, message: 'Invalid storage.port: must be an integer from 1 to 65535' },
      { name: 'a fractional port', storage: { kind: 'sftp', host: 'h', username: 'u', password: 'p', port: 22.5 }, message: 'Invalid storage.port: must be an integer from 1 to 65535' },
      { name: 'a non-boolean secure flag', storage: { kind: 'ftp', host: 'h', user: 'u', secure: 'yes' }, message: 'Invalid storage.secure: must be a boolean' },
      { name: 'a number where a string belongs', storage: { kind: 's3', region: 'r', bucket: 7, access_key_id: 'a', secret_access_key: 's' }, message: 'Invalid storage.bucket: must be a string of at most 10000 characters' },
      ...['http://user:pw@127.0.0.1:9000', 'https://key@s3.example.com', 'file:///etc', 'ftp://s3.example.com', 'javascript:alert(1)', 's3.example.com', 'http://'].map((endpoint) => ({
        name: `the s3 endpoint ${endpoint}`,
        storage: { kind: 's3', endpoint, region: 'r', bucket: 'b', access_key_id: 'a', secret_access_key: 's' },
        message: 'Invalid storage.endpoint: must be an http(s) URL without credentials',
      })),
      ...['ftp://ftp.example.com', 'user:pw@ftp.example.com', 'ftp.example.com:21', 'ftp.example.com/files', 'two words', 'bad..dots'].map((host) => ({
        name: `the ftp host ${host}`,
        storage: { kind: 'ftp', host, user: 'u' },
        message: 'Invalid storage.host: must be a host name or an IP address (no scheme, port, path or credentials; the port goes in port)',
      })),
      {
        name: 'an sftp host with credentials',
        storage: { kind: 'sftp', host: 'deploy:pw@sftp.example.com', username: 'u', password: 'p' },
        message: 'Invalid storage.host: must be a host name or an IP address (no scheme, port, path or credentials; the port goes in port)',
      },
      ...[
        ['text that is no key', 'not a key'],
        ['a key missing its body', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----'],
        ['a public key', crypto.generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'pkcs1', format: 'pem' } }).publicKey],
      ].map(([what, privateKey]) => ({
        name: `an sftp private_key that is ${what}`,
        storage: { kind: 'sftp', host: 'sftp.example.com', username: 'u', private_key: privateKey },
        message: 'Invalid storage.private_key: must be an unencrypted private key in OpenSSH, PEM or PuTTY format',
      })),
    ];
    for (const { name, storage, message } of invalidStorage) {
      it(`refuses storage with ${name} with 400 naming the problem, and stores nothing`, async () => {
        const before = await spaceCount();
        const response = await post('/api/spaces/create', { name: 'Never stored', storage });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: { code: 'invalid_parameters', message } });
        expect(await spaceCount()).toBe(before);
      });
    }

    it('refuses storage that is not an object with 400 naming storage', async () => {
      for (const storage of ['s3', ['s3'], 42, null]) {
        const response = await post('/api/spaces/create', { name: 'Never stored', storage });
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('invalid_parameters');
        expect(response.body.error.message).toContain('storage');
      }
    });

    it('refuses a missing, empty or over-long name and unknown properties with 400', async () => {
      const cases: Array<[unknown, string]> = [
        [{}, 'Invalid parameters: name is required'],
        [{ name: '   ' }, 'Invalid name: must be 1 to 200 characters'],
        [{ name: 'x'.repeat(201) }, 'Invalid parameters: name must NOT have more than 200 characters'],
        [{ name: 'ok', colour: 'red' }, 'Invalid parameters: unknown property "colour"'],
      ];
      const before = await spaceCount();
      for (const [body, message] of cases) {
        const response = await post('/api/spaces/create', body);
        expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { error: { code: 'invalid_parameters', message } } });
      }
      expect(await spaceCount()).toBe(before);
    });
  });

  describe('get and list', () => {
    it('lists the spaces of the account as [{id, name, account_id}] in id order', async () => {
      const other = await createAccount(ctx);
      await call(ctx, 'POST', '/api/spaces/create', { key: other.accountKey, body: { name: 'Elsewhere' } });
      const response = await get('/api/spaces/list');
      expect(response.status).toBe(200);
      const ids = response.body.map((s: { id: number }) => s.id);
      expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
      for (const space of response.body) {
        expect(Object.keys(space).sort()).toEqual(['account_id', 'id', 'name']);
        expect(space.account_id).toBe(world.accountId);
      }
    });

    it('answers 404 Space not found for an id that does not exist', async () => {
      const response = await get('/api/space/2000000000/get');
      expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: { error: { code: 'space_not_found', message: 'Space not found' } } });
    });

    it('answers 400 for a path id that is not an integer, and an integer no space can have as a missing space', async () => {
      for (const id of ['abc', '1.5']) {
        const response = await get(`/api/space/${id}/get`);
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('invalid_parameters');
      }
      const missing = await get('/api/space/999999/get');
      for (const id of ['0', '-1', '2147483648']) expect(await get(`/api/space/${id}/get`)).toMatchObject({ status: missing.status, body: missing.body });
    });
  });

  describe('update', () => {
    it('renames a space and keeps its storage and sealed credentials', async () => {
      const created = await post('/api/spaces/create', { name: 'Before', storage: storageKinds[3].sent });
      const sealedBefore = JSON.parse((await storedRow(created.body.id))!.storage_json).sealed;
      const response = await post(`/api/space/${created.body.id}/update`, { name: 'After' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...created.body, name: 'After' });
      expect(JSON.parse((await storedRow(created.body.id))!.storage_json).sealed).toBe(sealedBefore);
    });

    it('replaces the storage, dropping the old credentials', async () => {
      const created = await post('/api/spaces/create', { name: 'Moving', storage: storageKinds[2].sent });
      const response = await post(`/api/space/${created.body.id}/update`, { storage: { kind: 'none' } });
      expect(response.body).toMatchObject({ name: 'Moving', storage: { kind: 'none' } });
      expect(JSON.parse((await storedRow(created.body.id))!.storage_json)).toEqual({ kind: 'none', settings: {}, sealed: null });
    });

    it('keeps the stored secrets an update of the same kind leaves out (the console never shows them); null drops one', async () => {
      const box = createSecretBox('test-secret');
      const secretsOf = async (id: number) => JSON.parse(box.open(JSON.parse((await storedRow(id))!.storage_json).sealed));
      const s3 = await post('/api/spaces/create', { name: 'Keep S3', storage: storageKinds[2].sent });
      const { access_key_id: _a, secret_access_key: _s, ...s3Settings } = storageKinds[2].sent;
      const updated = await post(`/api/space/${s3.body.id}/update`, { storage: { ...s3Settings, bucket: 'other-bucket' } });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body.storage).toEqual({ ...storageKinds[2].shown, bucket: 'other-bucket' });
      expect(await secretsOf(s3.body.id)).toEqual(storageKinds[2].secrets);
      const newSecret = await post(`/api/space/${s3.body.id}/update`, { storage: { ...s3Settings, secret_access_key: 'a-new-secret' } });
      expect(newSecret.status).toBe(200);
      expect(await secretsOf(s3.body.id)).toEqual({ access_key_id: s3AccessKey, secret_access_key: 'a-new-secret' });

      const sftp = await post('/api/spaces/create', { name: 'Keep SFTP', storage: storageKinds[4].sent });
      const switched = await post(`/api/space/${sftp.body.id}/update`, { storage: { kind: 'sftp', host: 'sftp.example.com', username: 'deploy', password: null, private_key: sftpPrivateKey } });
      expect(switched.status, JSON.stringify(switched.body)).toBe(200);
      expect(await secretsOf(sftp.body.id)).toEqual({ private_key: sftpPrivateKey });

      // Another kind starts afresh: nothing of the old credentials carries over.
      const toFtp = await post(`/api/space/${s3.body.id}/update`, { storage: { kind: 'ftp', host: 'ftp.example.com', user: 'u' } });
      expect(toFtp.status).toBe(200);
      expect(JSON.parse((await storedRow(s3.body.id))!.storage_json).sealed).toBeNull();
    });

    it('answers the unchanged space for an empty body', async () => {
      const created = await post('/api/spaces/create', { name: 'Same' });
      const response = await post(`/api/space/${created.body.id}/update`, {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual(created.body);
    });

    it('refuses invalid storage or name with 400 and changes nothing', async () => {
      const created = await post('/api/spaces/create', { name: 'Stable', storage: storageKinds[3].sent });
      const rowBefore = await storedRow(created.body.id);
      const badStorage = await post(`/api/space/${created.body.id}/update`, { name: 'Changed', storage: { kind: 'ftp', host: 'h' } });
      expect(badStorage.body).toEqual({ error: { code: 'invalid_parameters', message: 'Invalid storage: user is required for kind ftp' } });
      const badName = await post(`/api/space/${created.body.id}/update`, { name: '' });
      expect(badName.body).toEqual({ error: { code: 'invalid_parameters', message: 'Invalid name: must be 1 to 200 characters' } });
      expect(await storedRow(created.body.id)).toEqual(rowBefore);
    });

    it('refuses an S3 endpoint with credentials or another scheme on update too, and keeps the storage it had', async () => {
      const created = await post('/api/spaces/create', { name: 'Endpoint', storage: storageKinds[2].sent });
      const rowBefore = await storedRow(created.body.id);
      for (const endpoint of ['http://user:pw@127.0.0.1:9000', 'file:///etc']) {
        const response = await post(`/api/space/${created.body.id}/update`, { storage: { ...storageKinds[2].sent, endpoint } });
        expect(response.body).toEqual({ error: { code: 'invalid_parameters', message: 'Invalid storage.endpoint: must be an http(s) URL without credentials' } });
      }
      expect(await storedRow(created.body.id)).toEqual(rowBefore);
    });

    it('takes host names, IPv4 and IPv6 addresses as FTP and SFTP hosts, and an empty S3 endpoint (AWS itself)', async () => {
      for (const host of ['ftp.example.com', 'localhost', '127.0.0.1', '::1', '[2001:db8::1]', 'files_1.internal.']) {
        const response = await post('/api/spaces/create', { name: `Host ${host}`, storage: { kind: 'ftp', host, user: 'u' } });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
      }
      const aws = await post('/api/spaces/create', { name: 'AWS', storage: { ...storageKinds[2].sent, endpoint: '' } });
      expect(aws.status).toBe(200);
    });

    it('shows an endpoint saved with credentials before they were refused without them, also to a read-only key', async () => {
      const created = await post('/api/spaces/create', { name: 'Old endpoint', storage: storageKinds[2].sent });
      const stored = JSON.parse((await storedRow(created.body.id))!.storage_json);
      stored.settings.endpoint = 'http://olduser:oldpassword@127.0.0.1:9000';
      await db().updateTable('spaces').set({ storage_json: JSON.stringify(stored) }).where('id', '=', created.body.id).execute();
      const readOnly = (await createKey(ctx, { accountId: world.accountId, readOnly: true })).key;
      const shown = await call(ctx, 'GET', `/api/space/${created.body.id}/get`, { key: readOnly });
      expect(shown.body.storage.endpoint).toBe('http://127.0.0.1:9000/');
      expect(JSON.stringify(shown.body)).not.toMatch(/olduser|oldpassword/);
    });

    it('answers 404 for a space that does not exist', async () => {
      const response = await post('/api/space/2000000000/update', { name: 'x' });
      expect(response.body).toEqual({ error: { code: 'space_not_found', message: 'Space not found' } });
    });
  });

  describe('delete', () => {
    it('answers {id, deleted:true} and removes the space, its tables with their physical rec_<id> tables, and its members', async () => {
      const space = await post('/api/spaces/create', { name: 'Doomed' });
      const keep = await post('/api/spaces/create', { name: 'Kept' });
      const first = await createTable(ctx, world, space.body.id, { name: 'One', fields: [{ name: 'Name', type: 'text' }] });
      const second = await createTable(ctx, world, space.body.id, { name: 'Two', fields: [{ name: 'Count', type: 'number' }] });
      const kept = await createTable(ctx, world, keep.body.id, { name: 'Kept table' });
      const member = await createUser(ctx, world, 'Doomed Member');
      await addMember(ctx, world, space.body.id, member.id, 'editor');
      for (const table of [first, second, kept]) expect((await physicalTables()).has(`rec_${table.id}`)).toBe(true);

      const response = await post(`/api/space/${space.body.id}/delete`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: space.body.id, deleted: true });

      const remaining = await physicalTables();
      expect(remaining.has(`rec_${first.id}`)).toBe(false);
      expect(remaining.has(`rec_${second.id}`)).toBe(false);
      expect(remaining.has(`rec_${kept.id}`)).toBe(true);
      expect(await db().selectFrom('tables').select('id').where('space_id', '=', space.body.id).execute()).toEqual([]);
      expect(await db().selectFrom('fields').select('id').where('table_id', 'in', [first.id, second.id]).execute()).toEqual([]);
      expect(await db().selectFrom('members').select('user_id').where('space_id', '=', space.body.id).execute()).toEqual([]);
      expect((await get(`/api/space/${space.body.id}/get`)).status).toBe(404);
      expect((await get(`/api/table/${first.id}/get`)).body).toEqual({ error: { code: 'table_not_found', message: 'Table not found' } });
      expect((await get(`/api/table/${kept.id}/get`)).status).toBe(200);
      expect((await get('/api/spaces/list')).body.map((s: { id: number }) => s.id)).not.toContain(space.body.id);
    });

    it('answers 404 when deleting the same space twice', async () => {
      const space = await post('/api/spaces/create', { name: 'Twice' });
      expect((await post(`/api/space/${space.body.id}/delete`)).status).toBe(200);
      const again = await post(`/api/space/${space.body.id}/delete`);
      expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: { error: { code: 'space_not_found', message: 'Space not found' } } });
    });

    it('leaves a key restricted to the deleted space seeing nothing, and later spaces never take its id', async () => {
      const space = await post('/api/spaces/create', { name: 'Restricted target' });
      const restricted = await createKey(ctx, { accountId: world.accountId, spaceIds: [space.body.id] });
      await post(`/api/space/${space.body.id}/delete`);
      const next = await post('/api/spaces/create', { name: 'Next' });
      expect(next.body.id).toBeGreaterThan(space.body.id);
      const listed = await call(ctx, 'GET', '/api/spaces/list', { key: restricted.key });
      expect(listed.body).toEqual([]);
    });
  });
});
