import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { assertBlobKey, type BlobStore, type ByteRange } from './blob-store.js';
import { relayStream } from './relay-stream.js';
import { BlobNotFoundError, translateStorageError } from './storage-errors.js';

export interface S3StoreOptions {
  /** Names the storage in messages: `managed S3 storage (bucket b)`. */
  label: string;
  bucket: string;
  /** Blobs live under `<prefix>/<key>`; slashes around it are ignored. */
  prefix?: string;
  /** An S3-compatible server (MinIO, s3rver…); addressed path-style. Unset: AWS itself. */
  endpoint?: string;
  /** Unset: the SDK's own resolution (AWS_REGION…), or us-east-1 for a custom endpoint. */
  region?: string;
  /** Unset: the SDK's default chain (AWS_ACCESS_KEY_ID…, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * Streams are uploaded in parts of this size, so a 50 MB upload never sits whole in memory;
 * S3 wants parts of at least 5 MiB (but the last), and a body shorter than one part goes up as
 * a single PutObject.
 */
const partBytes = 8 * 1024 * 1024;

/** Blobs as objects in an S3 bucket (AWS or compatible). */
export function createS3Store(options: S3StoreOptions): BlobStore {
  const { label, bucket } = options;
  const prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
  const client = new S3Client({
    endpoint: options.endpoint,
    forcePathStyle: options.endpoint !== undefined,
    region: options.region ?? (options.endpoint ? 'us-east-1' : undefined),
    credentials: options.credentials,
    // The SDK's default since 2025 adds CRC32 checksums and aws-chunked bodies to every upload;
    // S3-compatible servers (s3rver, older MinIO and Ceph) reject or mis-store those. Keys are
    // fresh and bodies travel over TLS, so checksums are sent only where an operation needs one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Passed as options (the SDK builds its NodeHttpHandler from them) rather than importing
    // @smithy/node-http-handler, a transitive dependency package.json does not name. The request
    // timeout runs until the answer's headers, so a long download is not cut by it.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000, throwOnRequestTimeout: true },
  });

  function objectKey(key: string): string {
    assertBlobKey(key);
    return prefix ? `${prefix}/${key}` : key;
  }

  async function putStream(Key: string, body: Readable): Promise<void> {
    let uploadId: string | undefined;
    const parts: { ETag?: string; PartNumber: number }[] = [];
    try {
      for await (const part of readParts(body)) {
        if (uploadId === undefined && part.last) {
          await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: part.bytes, IfNoneMatch: '*' }));
          return;
        }
        uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key }))).UploadId;
        const PartNumber = parts.length + 1;
        const { ETag } = await client.send(new UploadPartCommand({ Bucket: bucket, Key, UploadId: uploadId, PartNumber, Body: part.bytes }));
        parts.push({ ETag, PartNumber });
      }
      await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts }, IfNoneMatch: '*' }));
    } catch (error) {
      // An unfinished upload keeps its parts (and bills them) until it is aborted.
      if (uploadId !== undefined) await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId: uploadId })).catch(() => {});
      throw error;
    }
  }

  const store: BlobStore = {
    label,
    async put(key, body) {
      const Key = objectKey(key);
      await guard(async () => {
        // If-None-Match: * makes S3 refuse an existing key atomically (AWS since 2024, MinIO, R2);
        // servers that ignore the header replace it, which fresh keys never ask for.
        if (Buffer.isBuffer(body)) await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: body, IfNoneMatch: '*' }));
        else await putStream(Key, body);
      });
    },
    async get(key, range?: ByteRange) {
      const Key = objectKey(key);
      const answer = await guard(() =>
        missingAs(key, () => client.send(new GetObjectCommand({ Bucket: bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }))),
      );
      return relayStream(answer.Body as Readable, label);
    },
    async stat(key) {
      const Key = objectKey(key);
      return guard(async () => {
        try {
          const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
          return { size: head.ContentLength ?? 0 };
        } catch (error) {
          if (isMissing(error)) return null;
          throw error;
        }
      });
    },
    async delete(key) {
      const Key = objectKey(key);
      // S3 answers 204 for a missing key too.
      await guard(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key })));
    },
    async copy(fromKey, toKey) {
      const source = objectKey(fromKey);
      const Key = objectKey(toKey);
      const CopySource = `${bucket}/${source.split('/').map(encodeURIComponent).join('/')}`;
      await guard(() => missingAs(fromKey, () => client.send(new CopyObjectCommand({ Bucket: bucket, Key, CopySource, IfNoneMatch: '*' }))));
    },
    async close() {
      client.destroy();
    },
  };

  async function missingAs<T>(key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(label, key);
      throw error;
    }
  }

  function guard<T>(run: () => Promise<T>): Promise<T> {
    return run().catch((error: unknown) => {
      throw translateStorageError(error, label);
    });
  }

  return store;
}

/**
 * NoSuchKey, or NotFound for HEAD (its 404 has no body to name the error). Not any 404: a
 * missing bucket (NoSuchBucket) is a storage misconfigured, not a file gone.
 */
function isMissing(error: unknown): boolean {
  const { name } = (error ?? {}) as { name?: string };
  return name === 'NoSuchKey' || name === 'NotFound';
}

/** The body cut into parts of at least `partBytes` (the last one shorter), in order. */
async function* readParts(body: Readable): AsyncGenerator<{ bytes: Buffer; last: boolean }> {
  let chunks: Buffer[] = [];
  let size = 0;
  let parts = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(bytes);
    size += bytes.length;
    if (size >= partBytes) {
      yield { bytes: Buffer.concat(chunks, size), last: false };
      parts += 1;
      chunks = [];
      size = 0;
    }
  }
  // No empty part after full ones; an empty body is one empty part.
  if (size > 0 || parts === 0) yield { bytes: Buffer.concat(chunks, size), last: true };
}
