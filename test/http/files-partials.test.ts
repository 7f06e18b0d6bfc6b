import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { orphanGraceMs } from '../../src/modules/files/file-ledger.js';
import { useTestApp } from '../build-test-app.js';

/**
 * A process killed during a stream upload leaves its temporary `<id>.<hex>.partial` file in the
 * managed disk storage, named by no ledger row; the reclaim sweep removes it once it has not been
 * written to for the orphan grace (an hour), and counts it with the orphans.
 */
describe('the sweep removes the partial files of killed uploads', () => {
  const ctx = useTestApp();
  const root = () => path.join(ctx.database.dataDir, 'files');
  const partialsIn = (folder: string) => (fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith('.partial')) : []);

  /** A child process streams an endless upload into the disk store and is killed mid-way (SIGKILL: no cleanup runs). */
  async function killedUpload(folder: string, id: string): Promise<string> {
    const script = `
      import { Readable } from 'node:stream';
      import { createDiskStore } from ${JSON.stringify(path.resolve('src/blob-stores/disk.ts'))};
      const endless = new Readable({ read() { setTimeout(() => this.push(Buffer.alloc(1024, 120)), 5); } });
      await createDiskStore(${JSON.stringify(root())}).put(${JSON.stringify(`${folder}/${id}`)}, endless);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'ignore' });
    const dir = path.join(root(), folder);
    const mine = () => partialsIn(dir).filter((name) => name.startsWith(`${id}.`));
    try {
      for (let waited = 0; mine().length === 0; waited += 50) {
        if (waited > 30_000) throw new Error('the upload never started');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
    }
    return path.join(dir, mine()[0]);
  }

  it('a killed upload leaves a .partial file; untouched for over an hour, the sweep removes it, a recent one stays', { timeout: 60_000 }, async () => {
    const stale = await killedUpload('s901', 'a'.repeat(32));
    const recent = await killedUpload('s901', 'b'.repeat(32));
    expect(fs.existsSync(stale)).toBe(true);
    const blob = path.join(root(), 's901', 'c'.repeat(32));
    const lookalike = path.join(root(), 's901', 'notes.partial');
    fs.writeFileSync(blob, 'a finished blob');
    fs.writeFileSync(lookalike, 'not ours');
    const old = new Date(Date.now() - orphanGraceMs - 60_000);
    for (const file of [stale, blob, lookalike]) fs.utimesSync(file, old, old);

    const report = await ctx.container.services.reclaim.sweep();
    expect(report).toEqual({ deleted: 0, orphans: 1, adopted: 0, failed: 0 });
    expect(fs.existsSync(stale)).toBe(false);
    // Still within the grace (a slow upload keeps its file's time fresh): left alone.
    expect(fs.existsSync(recent)).toBe(true);
    // Blobs and files the service did not name so are never touched.
    expect(fs.existsSync(blob)).toBe(true);
    expect(fs.existsSync(lookalike)).toBe(true);

    expect((await ctx.container.services.reclaim.sweep()).orphans).toBe(0);
  });
});
