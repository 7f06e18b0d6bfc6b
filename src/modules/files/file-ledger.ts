import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { invalidParameters } from '../../shared/body-checks.js';
import { blobKey } from '../../blob-stores/blob-store.js';
import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { PayloadTooLargeError, ValidationError } from '../../shared/errors.js';
import type { Attachment, AttachmentInput } from '../fields/attachment.js';
import { attachmentsOf } from '../fields/attachment.js';
import type { FileLedger, WriteContext } from '../fields/value-context.js';
import { FieldValueError } from '../fields/value-helpers.js';
import { resolveRoleInSpace } from '../spaces/space-access.js';
import type { AllowedHost } from './address-policy.js';
import { attachmentPath, cleanDisplayName, newFileId, spaceFolder } from './attachment-path.js';
import { checkMimeType, decodeBase64, isImageType, maxFileBytes, peekAndCount, sniffType, splitDataUri } from './file-bytes.js';
import type { FileStorage, StorageTarget } from './file-storage.js';
import { fetchUrl } from './fetch-url.js';
import * as files from './files.repository.js';

/** Released managed files stay this long before the sweep deletes them (the specification's grace). */
export const reclaimGraceMs = 30 * 24 * 3600 * 1000;
/** A pending file older than this belongs to a write that never settled: the sweep looks at it. */
export const orphanGraceMs = 3600 * 1000;

/** Where a new file belongs. */
export interface FileOwner {
  accountId: number;
  spaceId: number;
  tableId: number;
  /** The file field it is stored for; 0 for a comment's file. */
  fieldId: number;
  /** The field takes images only. */
  imageOnly: boolean;
}

/** Comment files belong to their table and to no field. */
export const commentFileField = 0;

/** The bytes of a new file: whole (decoded base64) or a stream (a fetched URL, a raw upload). */
export type FileBytes = { bytes: Buffer } | { stream: Readable };

/** A file stored for a write that has not committed yet, and how to take it back. */
export interface StoredUpload {
  attachment: Attachment;
  remove(): Promise<void>;
}

type Problem = (problem: string) => Error;

/**
 * The files capability's ledger: every blob stored gets a `stored_files` row first (pending),
 * then the blob; the row turns live when the write that references it commits, and is queued
 * for reclaim when the last reference goes. Implements the FileLedger the file field type
 * calls, plus what the files endpoints need.
 */
export function createFileLedger(deps: { database: Database; clock: Clock; storage: FileStorage; fetchAllowHosts: readonly AllowedHost[]; fetchTimeoutMs?: number }) {
  const { db } = deps.database;
  const stamp = (offsetMs = 0) => formatDateTime(new Date(deps.clock.now().getTime() + offsetMs));

  /**
   * Takes back a blob stored for a write that failed, and its row. On managed storage a blob
   * that cannot be deleted now keeps its (pending) row, so the sweep deletes it later; a
   * space's own storage is never swept, so its row goes whatever the storage answers.
   */
  async function removeStored(target: StorageTarget, key: string, id: string): Promise<void> {
    try {
      await target.store.delete(key);
    } catch (error) {
      if (target.kind === 'managed') throw error;
    }
    await files.deleteFileRows(db, [id]);
  }

  /**
   * Stores one new file under a fresh key: the ledger row (pending) first, so that a crash
   * after the blob write leaves something the sweep finds, then the blob. The type is the
   * client's when it gave a valid one, else the bytes'.
   */
  async function storeNew(target: StorageTarget, owner: FileOwner, source: { name: string; type: string | null }, content: FileBytes, problem: Problem): Promise<StoredUpload> {
    let declared: string | null = null;
    if (source.type !== null) {
      declared = checkMimeType(source.type);
      if (declared === null) {
        // A stream refused unread is let go now (a fetched URL's connection closes).
        if ('stream' in content) content.stream.destroy();
        throw problem(`type "${source.type.slice(0, 100)}" is not a MIME type`);
      }
    }
    let body: Buffer | Readable;
    let head: Buffer;
    let counted: (() => number) | undefined;
    if ('bytes' in content) {
      if (content.bytes.length > maxFileBytes) throw new PayloadTooLargeError();
      body = head = content.bytes;
    } else {
      const peeked = await peekAndCount(content.stream);
      ({ head, body } = peeked);
      counted = peeked.size;
    }
    const type = declared ?? (await sniffType(head));
    if (owner.imageOnly && !isImageType(type)) {
      if (!Buffer.isBuffer(body)) body.destroy();
      throw problem(`${source.name} is not an image (${type}); the field takes images only`);
    }
    const id = newFileId();
    const folder = spaceFolder(owner.spaceId);
    const row: files.NewStoredFile = {
      id,
      account_id: owner.accountId,
      space_id: owner.spaceId,
      table_id: owner.tableId,
      field_id: owner.fieldId,
      store: target.kind,
      blob_key: blobKey(folder, id),
      path: attachmentPath(folder, id, source.name),
      name: source.name,
      type,
      size: Buffer.isBuffer(body) ? body.length : 0,
      host: target.host,
      created_at: stamp(),
    };
    await files.insertPendingFile(db, row, stamp(orphanGraceMs));
    const remove = () => removeStored(target, row.blob_key, id);
    try {
      await target.store.put(row.blob_key, body);
      if (counted) {
        row.size = counted();
        await files.setFileSize(db, id, row.size);
      }
    } catch (error) {
      // A storage that failed before reading it all lets the source go too (a fetched URL's connection closes).
      if (!Buffer.isBuffer(body)) body.destroy();
      await remove().catch(() => undefined);
      throw error;
    }
    return { attachment: presentFile(row), remove };
  }

  /** An independent copy of an account's stored file, for another record (or field). */
  async function copyFile(target: StorageTarget, owner: FileOwner, file: files.StoredFileRow, problem: Problem): Promise<StoredUpload> {
    const from = await deps.storage.holding(file);
    if (from === target.store) {
      const id = newFileId();
      const folder = spaceFolder(owner.spaceId);
      const row: files.NewStoredFile = { ...copyable(file), id, account_id: owner.accountId, space_id: owner.spaceId, table_id: owner.tableId, field_id: owner.fieldId, store: target.kind, blob_key: blobKey(folder, id), path: attachmentPath(folder, id, file.name), host: target.host, created_at: stamp() };
      if (owner.imageOnly && !isImageType(row.type)) throw problem(`${file.name} is not an image (${row.type}); the field takes images only`);
      await files.insertPendingFile(db, row, stamp(orphanGraceMs));
      try {
        await target.store.copy(file.blob_key, row.blob_key);
      } catch (error) {
        await files.deleteFileRows(db, [id]).catch(() => undefined);
        throw error;
      }
      return { attachment: presentFile(row), remove: () => removeStored(target, row.blob_key, id) };
    }
    return storeNew(target, owner, { name: file.name, type: file.type }, { stream: await from.get(file.blob_key) }, problem);
  }

  /** The bytes of an inline-data descriptor: raw base64 or a data URI. */
  function decodeInline(item: Extract<AttachmentInput, { kind: 'inline' }>, problem: Problem): { type: string | null; bytes: Buffer } {
    const uri = item.data.startsWith('data:') ? splitDataUri(item.data) : null;
    if (item.data.startsWith('data:') && (!uri || !uri.isBase64)) throw problem('data must be base64 or a data:<type>;base64,… URI');
    const bytes = decodeBase64(uri ? uri.base64 : item.data);
    if (!bytes) throw problem('data is not valid base64');
    return { type: item.type ?? uri?.type ?? null, bytes };
  }

  const ledger: FileLedger = {
    async store(items, field, ctx: WriteContext) {
      const owner: FileOwner = { accountId: ctx.actor.accountId, spaceId: ctx.target.spaceId, tableId: ctx.target.tableId, fieldId: field.id, imageOnly: field.settings.image_only === true };
      const own = new Map(attachmentsOf(ctx.target.recordId === undefined ? null : await ctx.currentValue(field)).map((a) => [a.path, a]));
      let target: StorageTarget | undefined;
      const storage = async () => (target ??= await deps.storage.requireForSpace(owner.spaceId));
      const stored: StoredUpload[] = [];
      const cleanup = async () => {
        await Promise.allSettled(stored.map((upload) => upload.remove()));
      };
      const attachments: Attachment[] = [];
      const seen = new Set<string>();
      // Copying by path reads the file: only from a space the caller can read (docs/decisions.md).
      const readable = new Map<number, boolean>([[owner.spaceId, true]]);
      const canRead = async (spaceId: number): Promise<boolean> => {
        if (!readable.has(spaceId)) readable.set(spaceId, (await resolveRoleInSpace(db, ctx.actor, spaceId)) !== null);
        return readable.get(spaceId)!;
      };
      try {
        for (const [index, item] of items.entries()) {
          const problem: Problem = (text) => new FieldValueError(field, `item ${index}: ${text}`);
          if (item.kind === 'stored') {
            if (seen.has(item.path)) throw problem(`attachment ${item.path} is listed twice`);
            seen.add(item.path);
            const mine = own.get(item.path);
            if (mine) {
              attachments.push(mine);
              continue;
            }
            const file = await files.findFileByPath(db, owner.accountId, item.path);
            // A file of a space the caller cannot read answers as no file at all: no oracle.
            if (!file || !(await canRead(file.space_id))) throw problem(`no attachment has the path ${item.path}`);
            // A file an operator restored is attached as it is, once, within its own space.
            if (file.state === 'restored' && file.space_id === owner.spaceId && file.store === (await storage()).kind) {
              attachments.push(presentFile(file));
              continue;
            }
            const copy = await copyFile(await storage(), owner, file, problem);
            stored.push(copy);
            attachments.push(copy.attachment);
            continue;
          }
          let upload: StoredUpload;
          if (item.kind === 'inline') {
            const { type, bytes } = decodeInline(item, problem);
            upload = await storeNew(await storage(), owner, { name: cleanDisplayName(item.name, 'file'), type }, { bytes }, problem);
          } else {
            // The storage first: a space without one (or with one refused) fetches nothing.
            const into = await storage();
            // `Invalid file source: …` names the URL; the answer names the field and item too,
            // whether the fetch failed before its body (head) or while it streamed (body).
            const naming = (error: unknown) => {
              throw error instanceof ValidationError && !(error instanceof FieldValueError) ? problem(error.message) : error;
            };
            const fetched = await fetchUrl(item.url, { allowHosts: deps.fetchAllowHosts, maxBytes: maxFileBytes, timeoutMs: deps.fetchTimeoutMs }).catch(naming);
            upload = await storeNew(into, owner, { name: cleanDisplayName(item.name ?? fetched.name, 'download'), type: item.type ?? fetched.type }, { stream: fetched.body }, problem).catch(naming);
          }
          stored.push(upload);
          attachments.push(upload.attachment);
        }
      } catch (error) {
        await cleanup();
        throw error;
      }
      return { attachments, cleanup };
    },

    async settle(next, previous, field, ctx) {
      const before = new Set(previous.map((a) => a.path));
      const after = new Set(next.map((a) => a.path));
      // The record is written whatever happens here: a pending file left unsettled is adopted
      // by the sweep (it finds the path in the record), a release left undone leaves a blob.
      try {
        await files.markLive(db, [...after].filter((path) => !before.has(path)), { tableId: ctx.target.tableId, fieldId: field.id, spaceId: ctx.target.spaceId });
        await files.releaseFiles(db, { paths: [...before].filter((path) => !after.has(path)) }, stamp(), stamp(reclaimGraceMs));
      } catch {
        // See above: nothing here may fail a committed write.
      }
    },

    async releaseAttachments(executor, attachments) {
      await files.releaseFiles(executor as Kysely<any>, { paths: attachments.map((a) => a.path) }, stamp(), stamp(reclaimGraceMs));
    },

    async releaseField(executor, field) {
      await files.releaseFiles(executor as Kysely<any>, { fieldId: field.id }, stamp(), stamp(reclaimGraceMs));
    },

    async releaseTable(executor, tableId) {
      await files.releaseFiles(executor as Kysely<any>, { tableId }, stamp(), stamp(reclaimGraceMs));
    },
  };

  return {
    ledger,
    storeNew,
    /** Inside the files endpoints' transaction: a new attachment is live once the field holds it. */
    async markLiveIn(trx: Database['db'], added: Attachment, owner: FileOwner): Promise<void> {
      await files.markLive(trx, [added.path], { tableId: owner.tableId, fieldId: owner.fieldId, spaceId: owner.spaceId });
    },
    /** Inside the files endpoints' transaction: an attachment that left its field is released. */
    async releaseIn(trx: Database['db'], removed: Attachment): Promise<void> {
      await files.releaseFiles(trx, { paths: [removed.path] }, stamp(), stamp(reclaimGraceMs));
    },
    /**
     * Inside a comment's transaction: its attachments must be uploads of comments/upload for
     * this table not used yet (400 naming the first that is not); they become live. Answers
     * them as stored (the client's copies of name, type and size are not trusted).
     */
    async claimCommentFiles(trx: Database['db'], owner: Pick<FileOwner, 'accountId' | 'tableId' | 'spaceId'>, paths: readonly string[]): Promise<Attachment[]> {
      const found = new Map((await files.findPendingTableUploads(trx, owner.accountId, owner.tableId, commentFileField, paths)).map((file) => [file.path, file]));
      const missing = paths.find((path) => !found.has(path));
      if (missing !== undefined) throw invalidParameters(`attachment ${missing.slice(0, 200)} is not an upload of comments/upload for this table (or it is used already)`);
      await files.markLive(trx, paths, { tableId: owner.tableId, fieldId: commentFileField, spaceId: owner.spaceId });
      return paths.map((path) => presentFile(found.get(path)!));
    },
    /** Inside a transaction deleting comments: their files are released. */
    async releasePaths(trx: Database['db'], paths: readonly string[]): Promise<void> {
      await files.releaseFiles(trx, { paths }, stamp(), stamp(reclaimGraceMs));
    },
    /** An upload of comments/upload for this table not used yet, or undefined. */
    async findPendingUpload(accountId: number, tableId: number, path: string): Promise<files.StoredFileRow | undefined> {
      return (await files.findPendingTableUploads(db, accountId, tableId, commentFileField, [path]))[0];
    },
    /** The stored file behind a path of the account (any state but pending). */
    findFile: (accountId: number, path: string) => files.findFileByPath(db, accountId, path),
    stamp,
  };
}

export type FileLedgerService = ReturnType<typeof createFileLedger>;

/** What a copy keeps of the original. */
function copyable(file: files.StoredFileRow) {
  return { name: file.name, type: file.type, size: Number(file.size) };
}

export function presentFile(file: Pick<files.StoredFileRow, 'name' | 'path' | 'type' | 'size' | 'host'>): Attachment {
  return { name: file.name, path: file.path, type: file.type, size: Number(file.size), host: file.host };
}

