import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobsOn } from '../blob-files.js';
import { makeTemporaryDirectory, startFtpPeer, startS3Peer, startSftpPeer, type FtpPeer, type S3Peer, type SftpPeer } from '../blob-stores/peers.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

/**
 * `GET …/files/thumbnail?field_id&path&size`: a WebP of an image attachment, at most `size`
 * pixels on its long side (64, 256 or 512), never enlarged, upright as its EXIF orientation
 * says; cached on disk by file and size (the second request reads the cache, not the blob);
 * 400 for another size, for a file that is not an image and for one with too many pixels; read
 * through the blob-store interface from every kind of storage. Its access rules are files/download's
 * and run in the files access matrix (test/http/files-access.test.ts).
 */

interface Attachment {
  name: string;
  path: string;
  type: string;
  size: number;
}

/** A plain image of one colour. */
const plainImage = (width: number, height: number, format: 'png' | 'jpeg') => sharp({ create: { width, height, channels: 3, background: '#3366cc' } })[format]().toBuffer();

/**
 * A 300×200 JPEG, blue with a red square in its stored top-left corner, whose EXIF orientation
 * (6) says "turn 90° clockwise to show": shown upright it is 200×300, the red square top right.
 */
const sidewaysJpeg = () =>
  sharp({ create: { width: 300, height: 200, channels: 3, background: '#0000ff' } })
    .composite([{ input: { create: { width: 60, height: 60, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** A PNG whose header says 20000×20000 pixels (400 million), with almost no data: a decompression bomb's shape. */
function bombPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20000, 0);
  header.writeUInt32BE(20000, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(Buffer.alloc(0))), chunk('IEND', Buffer.alloc(0))]);
}

/** The colour of one pixel of an image, as [r, g, b]. */
async function pixelAt(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}
const isRed = ([r, g, b]: number[]) => r > 200 && g < 60 && b < 60;
const isBlue = ([r, g, b]: number[]) => r < 60 && g < 60 && b > 200;

let s3: S3Peer;
let ftp: FtpPeer;
let sftp: SftpPeer;
let sftpRoot: string;

// Registered before the app's own beforeAll, so the peers' ports are known when it is built.
beforeAll(async () => {
  sftpRoot = makeTemporaryDirectory('sftp-thumbnails');
  [s3, ftp, sftp] = await Promise.all([startS3Peer(), startFtpPeer(), startSftpPeer(sftpRoot)]);
});

afterAll(async () => {
  await Promise.all([s3?.close(), ftp?.close(), sftp?.close()]);
  if (sftpRoot) fs.rmSync(sftpRoot, { recursive: true, force: true });
});

describe('files/thumbnail', () => {
  const ctx = useTestApp(() => ({ env: { TABULA_FETCH_ALLOW_HOSTS: [Number(new URL(s3.endpoint).port), ftp.port, sftp.port].map((port) => `127.0.0.1:${port}`).join(',') } }));
  let world: World;
  let tableId: number;
  let recordId: number;

  /** Uploads one file into `pics` of the record (raw upload); answers its attachment. */
  async function attach(name: string, type: string, bytes: Buffer, table = tableId, record = recordId): Promise<Attachment> {
    const answer = await ctx.app.inject({
      method: 'POST',
      url: `/api/table/${table}/record/${record}/files/upload?${new URLSearchParams({ field_id: 'pics', name })}`,
      headers: { authorization: `Bearer ${world.accountKey}`, 'content-type': type },
      payload: bytes,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().files.at(-1);
  }

  const thumbnail = (file: Attachment, size: string | number | undefined, headers: Record<string, string> = {}, table = tableId, record = recordId) => {
    const query = new URLSearchParams({ field_id: 'pics', path: file.path, ...(size === undefined ? {} : { size: String(size) }) });
    return ctx.app.inject({ method: 'GET', url: `/api/table/${table}/record/${record}/files/thumbnail?${query}`, headers: { authorization: `Bearer ${world.accountKey}`, ...headers } });
  };
  const sizeOf = async (image: Buffer) => {
    const { format, width, height } = await sharp(image).metadata();
    return { format, width, height };
  };
  const fileIdOf = (file: Attachment) => /^\/s\d+\/([0-9a-f]{32})-/.exec(file.path)![1];
  const cachedAt = (file: Attachment, size: number) => path.join(ctx.database.dataDir, 'thumbnails', fileIdOf(file).slice(0, 2), `${fileIdOf(file)}-${size}-w1.webp`);

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Photos');
    tableId = (await createTable(ctx, world, space.id, { name: 'Album', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'pics', name: 'Pictures', type: 'file' }] })).id;
    recordId = (await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: { name: 'one' } } })).body.id;
  });

  it('a PNG and a JPEG give a WebP of at most the size asked on the long side, with the download headers', async () => {
    const png = await attach('wide.png', 'image/png', await plainImage(1200, 800, 'png'));
    const jpeg = await attach('tall.jpg', 'image/jpeg', await plainImage(2000, 3000, 'jpeg'));
    for (const [file, size, expected] of [
      [png, 256, { width: 256, height: 171 }],
      [png, 64, { width: 64, height: 43 }],
      [jpeg, 512, { width: 341, height: 512 }],
      [jpeg, 64, { width: 43, height: 64 }],
    ] as const) {
      const answer = await thumbnail(file, size);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['content-type']).toBe('image/webp');
      expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
      expect(answer.headers.etag).toBe(`"${fileIdOf(file)}-${size}-w1"`);
      expect(answer.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(await sizeOf(answer.rawPayload), `${file.name} at ${size}`).toEqual({ format: 'webp', ...expected });
    }
  });

  it('never enlarges a small image', async () => {
    const small = await attach('small.png', 'image/png', await plainImage(40, 30, 'png'));
    expect(await sizeOf((await thumbnail(small, 512)).rawPayload)).toEqual({ format: 'webp', width: 40, height: 30 });
  });

  it('turns an EXIF-rotated JPEG upright', async () => {
    const sideways = await attach('sideways.jpg', 'image/jpeg', await sidewaysJpeg());
    const upright = (await thumbnail(sideways, 256)).rawPayload;
    expect(await sizeOf(upright)).toEqual({ format: 'webp', width: 171, height: 256 });
    // The red corner is top right once turned; and the orientation tag is not carried over to be applied twice.
    expect(isRed(await pixelAt(upright, 160, 10))).toBe(true);
    expect(isBlue(await pixelAt(upright, 10, 10))).toBe(true);
    expect((await sharp(upright).metadata()).orientation).toBeUndefined();
  });

  it('refuses a size other than 64, 256 or 512, and none, with 400 naming the sizes', async () => {
    const png = await attach('sizes.png', 'image/png', await plainImage(100, 100, 'png'));
    for (const [size, message] of [
      [100, 'Invalid parameters: size must be one of 64, 256, 512'],
      ['256px', 'Invalid parameters: size must be one of 64, 256, 512'],
      [undefined, 'Invalid parameters: size is required (size must be one of 64, 256, 512)'],
    ] as const) {
      const answer = await thumbnail(png, size);
      expect({ status: answer.statusCode, body: answer.json() }, String(size)).toEqual({ status: 400, body: { error: { code: 'invalid_parameters', message } } });
    }
  });

  it('answers 400 thumbnail_unavailable for a file that is not an image, not one it reads, too many pixels to decode, or empty', async () => {
    const cases: Array<[Attachment, string]> = [
      [await attach('notes.txt', 'text/plain', Buffer.from('plain text')), 'Thumbnail unavailable: notes.txt is not an image (text/plain)'],
      [await attach('liar.png', 'image/png', Buffer.from('not a picture at all')), 'Thumbnail unavailable: liar.png is not an image the server can read'],
      [await attach('logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')), 'Thumbnail unavailable: logo.svg is not an image the server makes thumbnails of (svg)'],
      [await attach('bomb.png', 'image/png', bombPng()), 'Thumbnail unavailable: bomb.png has more than 120 million pixels'],
      // sharp throws on an empty input before reading it: it was a 500.
      [await attach('empty.jpg', 'image/jpeg', Buffer.alloc(0)), 'Thumbnail unavailable: empty.jpg is empty'],
    ];
    for (const [file, message] of cases) {
      const answer = await thumbnail(file, 256);
      expect({ status: answer.statusCode, body: answer.json() }, file.name).toEqual({ status: 400, body: { error: { code: 'thumbnail_unavailable', message } } });
      expect(fs.existsSync(cachedAt(file, 256)), 'nothing cached').toBe(false);
    }
  });

  it('is cached: the second request reads the cache, not the blob; If-None-Match answers 304', async () => {
    const png = await attach('cached.png', 'image/png', await plainImage(900, 600, 'png'));
    const first = await thumbnail(png, 256);
    expect(first.statusCode).toBe(200);
    expect(fs.readFileSync(cachedAt(png, 256))).toEqual(first.rawPayload);
    // The blob goes from storage behind the service's back: the cached size still answers, another size cannot be made.
    const blob = blobsOn(ctx.database.dataDir).find((file) => file.endsWith(fileIdOf(png)))!;
    fs.rmSync(blob);
    const second = await thumbnail(png, 256);
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload).toEqual(first.rawPayload);
    expect((await thumbnail(png, 64)).json().error.code).toBe('storage_file_missing');
    const revalidated = await thumbnail(png, 256, { 'if-none-match': first.headers.etag as string });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
    expect(revalidated.headers.etag).toBe(first.headers.etag);
  });

  it('a file taken out of its field answers Attachment not found; once reclaimed, its thumbnails are gone from the cache', async () => {
    const png = await attach('reclaimed.png', 'image/png', await plainImage(300, 300, 'png'));
    for (const size of [64, 256]) expect((await thumbnail(png, size)).statusCode).toBe(200);
    const removed = await call(ctx, 'POST', `/api/table/${tableId}/record/${recordId}/files/delete`, { key: world.accountKey, body: { field_id: 'pics', path: png.path } });
    expect(removed.status).toBe(200);
    expect((await thumbnail(png, 256)).json()).toEqual({ error: { code: 'attachment_not_found', message: 'Attachment not found' } });
    expect(fs.existsSync(cachedAt(png, 256))).toBe(true);
    const report = await ctx.container.services.reclaim.sweep({ asOf: new Date(Date.now() + 31 * 24 * 3600 * 1000) });
    expect(report.deleted).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(cachedAt(png, 64))).toBe(false);
    expect(fs.existsSync(cachedAt(png, 256))).toBe(false);
  });

  describe.each(['s3', 'ftp', 'sftp'] as const)("a space's own %s storage", (kind) => {
    it('gives a thumbnail of a file stored there', async () => {
      const storage = {
        s3: { kind, endpoint: s3.endpoint, region: 'us-east-1', bucket: s3.bucket, prefix: 'thumbs', access_key_id: s3.credentials.accessKeyId, secret_access_key: s3.credentials.secretAccessKey },
        ftp: { kind, host: '127.0.0.1', port: ftp.port, user: ftp.user, password: ftp.password, folder: 'thumbs' },
        sftp: { kind, host: '127.0.0.1', port: sftp.port, username: sftp.username, password: sftp.password, folder: 'thumbs' },
      }[kind];
      const space = await call(ctx, 'POST', '/api/spaces/create', { key: world.accountKey, body: { name: `On ${kind}`, storage } });
      expect(space.status, JSON.stringify(space.body)).toBe(200);
      const table = (await createTable(ctx, world, space.body.id, { name: 'Album', fields: [{ id: 'pics', name: 'Pictures', type: 'file' }] })).id;
      const record = (await call(ctx, 'POST', `/api/table/${table}/records/create`, { key: world.accountKey, body: { data: {} } })).body.id;
      const jpeg = await attach('remote.jpg', 'image/jpeg', await plainImage(1000, 500, 'jpeg'), table, record);
      expect(blobsOn(ctx.database.dataDir).some((file) => file.endsWith(fileIdOf(jpeg))), 'not on managed storage').toBe(false);
      const answer = await thumbnail(jpeg, 256, {}, table, record);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await sizeOf(answer.rawPayload)).toEqual({ format: 'webp', width: 256, height: 128 });
    });
  });
});
