import { PassThrough, type Readable } from 'node:stream';
import { translateStorageError } from './storage-errors.js';

/**
 * Hands a protocol's download stream to the reader: its errors arrive translated (a dropped
 * connection is a StorageError naming the storage, like every other failure), and `release`
 * runs once when the reader is done with it, whether it read to the end, failed or gave up, so
 * a connection opened for this one download is closed then and not before.
 */
export function relayStream(source: Readable, label: string, release?: () => void): Readable {
  const output = new PassThrough();
  source.on('error', (error) => output.destroy(translateStorageError(error, label)));
  output.on('close', () => {
    if (!source.destroyed) source.destroy();
    release?.();
  });
  source.pipe(output);
  return output;
}
