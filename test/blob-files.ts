import fs from 'node:fs';
import path from 'node:path';

/**
 * Every blob file under the managed disk storage `<dataDir>/files` (temporary ones included),
 * full paths, sorted: what a refused or failed write must not leave behind.
 */
export function blobsOn(dataDir: string): string[] {
  const root = path.join(dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** How many blob files `blobsOn` lists. */
export function blobCount(dataDir: string): number {
  return blobsOn(dataDir).length;
}
