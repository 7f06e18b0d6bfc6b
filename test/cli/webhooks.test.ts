import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type ReceivedRequest, type Receiver } from '../webhook-receiver.js';
import { buildTimeout, cleanEnv, cliTestTimeout, createCli, ensureBuilt, expectSingleJsonObject, repoRoot, type Cli, type Server } from './run-cli.js';

/** `tabula webhooks list|create|delete|deliveries` for operators, and `tabula webhooks verify` for a receiver's author. */

/** A received request as `curl -i` or a raw dump shows it: request line, headers, blank line, body. */
function dump(request: ReceivedRequest, lineEnd = '\r\n'): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${String(value)}`);
  return [`POST ${request.path} HTTP/1.1`, ...headers, '', request.body].join(lineEnd);
}

function verify(secret: string, input: string) {
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'main.js'), 'webhooks', 'verify', '--secret', secret], { input, env: cleanEnv(), encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('tabula webhooks', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  let server: Server;
  let receiver: Receiver;
  let tableId: number;
  let key: string;

  beforeAll(async () => {
    cli = await createCli({ env: { TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1', TABULA_PURGE_INTERVAL: '0s', TABULA_RECLAIM_INTERVAL: '0s' } });
    key = (await cli.json('init', '--email', 'owner@example.com', '--json')).api_key;
    server = await cli.startServer();
    const post = async (url: string, body: unknown) => (await server.request('POST', url, { key, body })).body;
    const space = await post('/api/spaces/create', { name: 'Hooks' });
    tableId = (await post(`/api/space/${space.id}/tables/create`, { name: 'Deals', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'stage', name: 'Stage', type: 'text' }] })).id;
    receiver = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    await cli?.close();
    await receiver?.close();
  }, 60_000);

  it('create prints the secret once; the server delivers; verify accepts the request as received and refuses a changed one', { timeout: cliTestTimeout }, async () => {
    const created = await cli.json('webhooks', 'create', '--table', String(tableId), '--url', receiver.url, '--events', 'record.created', '--fields', 'name', '--json');
    expect(created).toMatchObject({ table_id: tableId, url: receiver.url, events: ['record.created'], fields: ['name'], active: true, secret: expect.stringMatching(/^whsec_/) });
    await server.request('POST', `/api/table/${tableId}/records/create`, { key, body: { data: { name: 'Ada' } } });
    await receiver.waitFor(1);
    const request = receiver.received[0];

    const valid = verify(created.secret, dump(request));
    expect(valid).toEqual({ code: 0, stdout: `valid signature (webhook-id ${request.headers['webhook-id']}, type record.created)\n`, stderr: '' });
    // LF line ends and a trailing newline, as a terminal paste has them.
    expect(verify(created.secret, `${dump(request, '\n')}\n`).code).toBe(0);
    const tampered = verify(created.secret, dump({ ...request, body: request.body.replace('Ada', 'Eve') }));
    expect(tampered).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('invalid signature: No matching signature found') });
    expect(verify(created.secret, 'POST /hook HTTP/1.1\r\ncontent-type: application/json\r\n\r\n{}')).toMatchObject({ code: 1, stderr: expect.stringContaining('missing headers webhook-id, webhook-timestamp, webhook-signature') });

    const listed = expectSingleJsonObject(await cli.ok('webhooks', 'list', '--json'));
    expect(listed.webhooks).toEqual([expect.objectContaining({ id: created.id, table_id: tableId, url: receiver.url, active: true })]);
    const table = await cli.ok('webhooks', 'list');
    expect(table.split('\n')[0]).toMatch(/^ID\s+TABLE\s+URL\s+EVENTS\s+FIELDS\s+ACTIVE\s+CURSOR\s+FAILING SINCE$/);

    await expect.poll(async () => expectSingleJsonObject(await cli.ok('webhooks', 'deliveries', String(created.id), '--json')).deliveries.length).toBe(1);
    const log = expectSingleJsonObject(await cli.ok('webhooks', 'deliveries', String(created.id), '--json'));
    expect(log.deliveries[0]).toMatchObject({ kind: 'record.created', attempt: 1, status: 'succeeded', response_code: 200 });

    expect(await cli.ok('webhooks', 'delete', String(created.id))).toBe(`id: ${created.id}\ndeleted: true\n`);
    const missing = await cli.run('webhooks', 'delete', String(created.id));
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining(`Webhook ${created.id} not found`) });
  });

  it('refuses bad input naming the problem', { timeout: cliTestTimeout }, async () => {
    const privateUrl = await cli.run('webhooks', 'create', '--table', String(tableId), '--url', 'http://10.0.0.1/hook');
    expect(privateUrl.code).not.toBe(0);
    expect(privateUrl.stderr).toContain('url http://10.0.0.1 is a private address');
    expect((await cli.run('webhooks', 'create', '--url', receiver.url)).code).toBe(2);
    expect((await cli.run('webhooks', 'verify')).code).toBe(2);
    expect(expectSingleJsonObject(await cli.ok('webhooks', 'list', '--json')).webhooks).toEqual([]);
  });
});
