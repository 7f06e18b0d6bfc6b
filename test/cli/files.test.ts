import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, type Cli, cliTestTimeout, createCli, ensureBuilt, executeOnDatabase as execute, expectSingleJsonObject, type Server } from './run-cli.js';

const day = 24 * 3600 * 1000;
const text = (content: string) => Buffer.from(content).toString('base64');
const filesUsage = 'usage: tabula files pending [--json]\n       tabula files restore PATH [--json]\n       tabula files sweep [--as-of ISO_DATETIME] [--json]';
const sweepUsage = 'usage: tabula files sweep [--as-of ISO_DATETIME] [--json]\n(run `tabula files sweep --help` for every option and an example)';

interface Attachment {
  name: string;
  path: string;
  type: string;
  size: number;
  host: string;
}

/** The blob file of a managed attachment on disk: `<data>/files/s<space>/<id>`. */
function blobFileOf(dataDir: string, attachmentPath: string): string {
  const match = /^\/(s\d+)\/([0-9a-f]{32})-/.exec(attachmentPath)!;
  return path.join(dataDir, 'files', match[1], match[2]);
}


/** An account, a space and a table with a file field, made through a running server. */
async function setUp(cli: Cli) {
  const owner = await cli.json('init', '--email', 'owner@example.com', '--json');
  const server = await cli.startServer();
  const post = async (url: string, body: unknown = {}) => {
    const response = await server.request('POST', url, { key: owner.api_key, body });
    expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  };
  const space = await post('/api/spaces/create', { name: 'Files' });
  const table = await post(`/api/space/${space.id}/tables/create`, { name: 'Docs', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] });
  /** Records holding these files, emptied: their files are queued (a deleted record keeps its files while it is in the trash). */
  const release = async (...sizes: number[]): Promise<Attachment[]> => {
    const released: Attachment[] = [];
    for (const size of sizes) {
      const docs = Array.from({ length: size }, (_, index) => ({ data: text(`content ${index}`), name: `file-${index}.txt` }));
      const record = await post(`/api/table/${table.id}/records/create`, { data: { docs } });
      await post(`/api/table/${table.id}/record/${record.id}/update`, { data: { docs: [] } });
      released.push(...record.data.docs);
    }
    return released;
  };
  return { server, spaceId: space.id as number, tableId: table.id as number, post, release };
}

describe('tabula files', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  let world: Awaited<ReturnType<typeof setUp>>;
  let server: Server;

  beforeAll(async () => {
    cli = await createCli();
    world = await setUp(cli);
    server = world.server;
  }, 120_000);
  afterAll(() => cli?.close(), 60_000);

  it('pending lists released files as a table, and --json as one object', { timeout: cliTestTimeout }, async () => {
    const [file] = await world.release(1);
    const table = await cli.ok('files', 'pending');
    const [header, row, ...rest] = table.trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(header.split(/\s{2,}/)).toEqual(['PATH', 'NAME', 'SIZE', 'SPACE', 'RELEASED AT', 'RECLAIM AFTER']);
    const cells = row.split(/\s{2,}/);
    expect(cells.slice(0, 4)).toEqual([file.path, 'file-0.txt', '9 B', String(world.spaceId)]);
    const [releasedAt, reclaimAfter] = [cells[4], cells[5]];
    expect(Date.parse(`${reclaimAfter.replace(' ', 'T')}Z`) - Date.parse(`${releasedAt.replace(' ', 'T')}Z`)).toBe(30 * day);

    const listed = await cli.json('files', 'pending', '--json');
    expect(listed).toEqual({ files: [{ ...file, space_id: world.spaceId, released_at: releasedAt, reclaim_after: reclaimAfter }] });
  });

  it('restore prints the attachment object, which a record update takes back without a copy', { timeout: cliTestTimeout }, async () => {
    const { files } = await cli.json<{ files: Array<Attachment & { space_id: number; released_at: string; reclaim_after: string }> }>('files', 'pending', '--json');
    const { name, path: filePath, type, size, host } = files[0];
    const attachment: Attachment = { name, path: filePath, type, size, host };
    const restored = await cli.json('files', 'restore', attachment.path, '--json');
    expect(restored).toEqual(attachment);
    expect(await cli.json('files', 'pending', '--json')).toEqual({ files: [] });
    expect(await cli.ok('files', 'pending')).toBe('no files waiting for reclaim\n');

    const record = await world.post(`/api/table/${world.tableId}/records/create`, { data: { docs: [restored] } });
    expect(record.data.docs).toEqual([attachment]);
    const got = await world.post(`/api/table/${world.tableId}/record/${record.id}/files/get`, { field_id: 'docs', path: attachment.path });
    expect(got).toEqual({ name: 'file-0.txt', type: 'application/octet-stream', size: 9, data: text('content 0') });
    await world.post(`/api/table/${world.tableId}/record/${record.id}/update`, { data: { docs: [] } });

    // Without --json: what was restored, where it may go, and the object to write.
    const readable = await cli.ok('files', 'restore', attachment.path);
    expect(readable).toBe(`restored ${attachment.path}; write this attachment object to a file field of a record in space ${world.spaceId} to attach it again:\n${JSON.stringify(attachment)}\n`);
    await world.post(`/api/table/${world.tableId}/records/create`, { data: { docs: [attachment] } }).then((again) => world.post(`/api/table/${world.tableId}/record/${again.id}/update`, { data: { docs: [] } }));
  });

  it('restore of a path not waiting for reclaim fails with exit 1 and the reason on stderr', { timeout: cliTestTimeout }, async () => {
    const result = await cli.run('files', 'restore', '/s1/00000000000000000000000000000000-nope.txt');
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: 'tabula files: No file waiting for reclaim has the path /s1/00000000000000000000000000000000-nope.txt\n' });
    expect(await cli.run('files', 'restore')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^tabula files: files restore needs the PATH/) });
  });

  it('sweep --as-of 31 days ahead deletes the released files and prints the summary', { timeout: cliTestTimeout }, async () => {
    const { files } = await cli.json<{ files: Attachment[] }>('files', 'pending', '--json');
    expect(files).toHaveLength(1);
    const blob = blobFileOf(cli.dataDir, files[0].path);
    expect(fs.existsSync(blob)).toBe(true);

    expect(await cli.ok('files', 'sweep')).toBe('deleted 0 released files, removed 0 orphans, adopted 0, 0 failed (left for the next sweep)\n');
    expect(await cli.ok('files', 'sweep', '--as-of', new Date(Date.now() + 29 * day).toISOString())).toMatch(/^deleted 0 released files/);
    expect(fs.existsSync(blob)).toBe(true);

    const asOf = new Date(Date.now() + 31 * day).toISOString();
    expect(await cli.ok('files', 'sweep', '--as-of', asOf)).toBe('deleted 1 released files, removed 0 orphans, adopted 0, 0 failed (left for the next sweep)\n');
    expect(fs.existsSync(blob)).toBe(false);
    expect(await cli.json('files', 'pending', '--json')).toEqual({ files: [] });
    expect(await cli.json('files', 'sweep', '--as-of', asOf, '--json')).toEqual({ deleted: 0, orphans: 0, adopted: 0, failed: 0 });
  });

  it('a long sweep prints a progress line per batch on stderr', { timeout: 120_000 }, async () => {
    const released = await world.release(100, 100, 50);
    const date = new Date(Date.now() + 31 * day).toISOString().slice(0, 10);
    const result = await cli.run('files', 'sweep', '--as-of', date);
    expect(result).toMatchObject({ code: 0, stdout: 'deleted 250 released files, removed 0 orphans, adopted 0, 0 failed (left for the next sweep)\n' });
    expect(result.stderr).toBe('swept 100 files…\nswept 200 files…\nswept 250 files…\n');
    for (const file of released) expect(fs.existsSync(blobFileOf(cli.dataDir, file.path))).toBe(false);
  });

  it('a bad --as-of is a usage error: exit 2, the reason on stderr, nothing swept', { timeout: cliTestTimeout }, async () => {
    for (const bad of ['yesterday', '2024-02-31', '2024-13-01T00:00:00Z', '2024-06-01T25:00:00Z', '1717200000', '']) {
      const result = await cli.run('files', 'sweep', '--as-of', bad);
      expect(result, bad).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr, bad).toMatch(/^tabula files: --as-of (must be an ISO date-time such as 2024-06-01T00:00:00Z|is not a real date-time)/);
      expect(result.stderr, bad).toMatch(new RegExp(`\n${sweepUsage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`));
    }
    expect(await cli.run('files', 'pending', '--as-of', '2024-06-01')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^tabula files: unknown option --as-of\nusage: tabula files pending \[--json\]\n/) });
    expect(await cli.run('files', 'frobnicate')).toMatchObject({ code: 2, stdout: '', stderr: `tabula files: unknown command "files frobnicate"\n${filesUsage}\n(run \`tabula files --help\` for more)\n` });
    expect(await cli.run('files', 'sweep', 'extra')).toMatchObject({ code: 2, stderr: `tabula files: unexpected argument "extra"\n${sweepUsage}\n` });
    const help = await cli.run('files', '--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout.startsWith(`${filesUsage}\n\n`)).toBe(true);
    expect(help.stdout).toContain('  sweep    run the reclaim sweep now\n');
    expect(expectSingleJsonObject(await cli.ok('files', 'sweep', '--as-of', '2030-01-01T12:00:00+02:00', '--json'))).toEqual({ deleted: 0, orphans: 0, adopted: 0, failed: 0 });
  });

  it('serve keeps answering while the CLI sweeps', { timeout: cliTestTimeout }, async () => {
    expect(await server.request('GET', '/healthz')).toMatchObject({ status: 200 });
  });
});

describe('tabula serve sweeps on TABULA_RECLAIM_INTERVAL', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli | undefined;
  afterAll(() => cli?.close(), 60_000);

  it('a server with a 1 s interval deletes a file whose grace has passed, and stops cleanly', { timeout: 90_000 }, async () => {
    cli = await createCli({ env: { TABULA_RECLAIM_INTERVAL: '1s' } });
    const world = await setUp(cli);
    const [file, other] = await world.release(2);
    // One file's grace ended long ago (as if released 31 days back); the other's has not.
    await execute(cli, `update stored_files set reclaim_after = '2000-01-01 00:00:00' where path = '${file.path}'`);
    const deadline = Date.now() + 30_000;
    while (fs.existsSync(blobFileOf(cli.dataDir, file.path)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(fs.existsSync(blobFileOf(cli.dataDir, file.path))).toBe(false);
    expect((await cli.json<{ files: Attachment[] }>('files', 'pending', '--json')).files.map((f) => f.path)).toEqual([other.path]);
    expect(fs.existsSync(blobFileOf(cli.dataDir, other.path))).toBe(true);
    expect(await world.server.stop()).toEqual({ code: 0, signal: null });
  });
});
