import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createThumbnailCache } from '../../src/modules/files/thumbnail-cache.js';

/**
 * The thumbnail cache on disk (modules/files/thumbnail-cache.ts): entries by file id and size,
 * bounded by size, the least recently used out first (down to 80 % of the bound), a hit
 * counting as a use; a file's thumbnails removed together.
 */
describe('thumbnail cache', () => {
  let directory: string;
  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-thumbnail-cache-'));
  });
  afterEach(() => fs.rmSync(directory, { recursive: true, force: true }));

  const idOf = (n: number) => n.toString(16).padStart(32, '0');
  const entries = () => fs.readdirSync(directory, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  const totalBytes = () => fs.readdirSync(directory, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
  /** Sets an entry's last use `hoursAgo`. */
  const usedHoursAgo = (n: number, hoursAgo: number) => {
    const time = new Date(Date.now() - hoursAgo * 3600 * 1000);
    fs.utimesSync(path.join(directory, idOf(n).slice(0, 2), `${idOf(n)}-256-w1.webp`), time, time);
  };

  it('reads back what it wrote, and nothing for another size or file', async () => {
    const cache = createThumbnailCache({ directory, maxBytes: 1024 * 1024 });
    await cache.write(idOf(1), 256, Buffer.from('thumbnail one'));
    expect((await cache.read(idOf(1), 256))?.toString()).toBe('thumbnail one');
    expect(await cache.read(idOf(1), 64)).toBeNull();
    expect(await cache.read(idOf(2), 256)).toBeNull();
    expect(entries()).toEqual([`${idOf(1)}-256-w1.webp`]);
  });

  it('past its bound, removes the least recently used entries down to 80 % of it; a read counts as a use', async () => {
    const cache = createThumbnailCache({ directory, maxBytes: 10_000 });
    // Ten entries of 1000 bytes: exactly the bound, nothing evicted. Entry n was last used 20 - n hours ago.
    for (let n = 1; n <= 10; n++) await cache.write(idOf(n), 256, Buffer.alloc(1000, n));
    for (let n = 1; n <= 10; n++) usedHoursAgo(n, 20 - n);
    // Entry 1, the oldest, is read: now the most recent.
    expect((await cache.read(idOf(1), 256))?.length).toBe(1000);
    // The eleventh passes the bound: the oldest go until 8000 bytes are left.
    await cache.write(idOf(11), 256, Buffer.alloc(1000, 11));
    await expect.poll(totalBytes).toBeLessThanOrEqual(8000);
    expect(totalBytes()).toBe(8000);
    const left = entries();
    for (const gone of [2, 3, 4]) expect(left, `entry ${gone}`).not.toContain(`${idOf(gone)}-256-w1.webp`);
    for (const kept of [1, 5, 11]) expect(left, `entry ${kept}`).toContain(`${idOf(kept)}-256-w1.webp`);
  });

  it('counts what is already in the folder when it starts (another process, a restart)', async () => {
    const before = createThumbnailCache({ directory, maxBytes: 100_000 });
    for (let n = 1; n <= 5; n++) await before.write(idOf(n), 256, Buffer.alloc(1000, n));
    for (let n = 1; n <= 5; n++) usedHoursAgo(n, 10 - n);
    const restarted = createThumbnailCache({ directory, maxBytes: 5000 });
    await restarted.write(idOf(6), 256, Buffer.alloc(1000, 6));
    await expect.poll(totalBytes).toBeLessThanOrEqual(4000);
    expect(entries()).toContain(`${idOf(6)}-256-w1.webp`);
    expect(entries()).not.toContain(`${idOf(1)}-256-w1.webp`);
  });

  it("removes every size of one file's thumbnails, and only that file's", async () => {
    const cache = createThumbnailCache({ directory, maxBytes: 1024 * 1024 });
    for (const size of [64, 256, 512] as const) await cache.write(idOf(1), size, Buffer.from(`one at ${size}`));
    await cache.write(idOf(2), 64, Buffer.from('two'));
    await cache.removeFile(idOf(1));
    expect(entries()).toEqual([`${idOf(2)}-64-w1.webp`]);
    await cache.removeFile(idOf(3));
  });
});
