import type { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from '../../blob-stores/blob-store.js';
import { ErrorCode, ValidationError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import { attachmentsOf, type Attachment } from '../fields/attachment.js';
import { maxAttachmentsPerField } from '../fields/file.js';
import type { RecordsService } from '../records/records.service.js';
import { cleanDisplayName } from './attachment-path.js';
import { decodeBase64, maxFileBytes } from './file-bytes.js';
import { checkObjectBody, invalidParameters } from '../../shared/body-checks.js';
import { presentFile, type FileBytes, type FileLedgerService } from './file-ledger.js';
import type { FileStorage } from './file-storage.js';

const attachmentNotFound = () => new ValidationError('Attachment not found', ErrorCode.attachmentNotFound);

function requireText(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) throw invalidParameters(`${key} is required`);
  if (typeof value !== 'string' || value === '') throw invalidParameters(`${key} must be a non-empty string`);
  return value;
}

function optionalText(body: Record<string, unknown>, key: string): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidParameters(`${key} must be a string`);
  return value;
}

/** What a download needs: the attachment, and its bytes (or a range of them) as a stream. */
export interface OpenedFile {
  attachment: Attachment;
  /** The blob's own size; the attachment's may differ only if the blob was changed behind the service's back. */
  size: number;
  open(range?: ByteRange): Promise<Readable>;
}

/** Which attachment of a record is meant: a file field's slug and the attachment's path. */
export interface FileRef {
  fieldSlug: string;
  path: string;
}

/** `{field_id, path}` of a body or query, checked: 400 naming what is missing or unknown. `extra` names other keys the caller checks itself. */
export function fileRefOf(body: unknown, extra: readonly string[] = []): FileRef {
  const input = checkObjectBody(body, ['field_id', 'path', ...extra]);
  return { fieldSlug: requireText(input, 'field_id'), path: requireText(input, 'path') };
}

/** A record's attachment that the caller may read, and where its bytes are. */
export interface LocatedFile {
  attachment: Attachment;
  /** The stored file's id: unique, and its bytes never change. */
  fileId: string;
  store: BlobStore;
  blobKey: string;
  /** The size recorded when the file was stored. */
  declaredSize: number;
}

/**
 * The three files endpoints of the specification, and the raw upload and download beside them.
 * Access, the field and the record come from the records service (one way to a table); the
 * bytes and the ledger from the file ledger; the field's value changes in one transaction.
 */
export function createFilesService(deps: { records: RecordsService; ledger: FileLedgerService; storage: FileStorage }) {
  const { records, ledger } = deps;

  /** Stores the bytes, then appends the attachment to the field in one transaction; the blob goes again if that fails. */
  async function append(actor: Actor, tableId: number, recordId: number, fieldSlug: string, source: { name: string; type: string | null }, content: FileBytes) {
    const target = await records.fileField(actor, tableId, recordId, fieldSlug, 'write');
    const storage = await deps.storage.requireForSpace(target.spaceId);
    const owner = { accountId: target.accountId, spaceId: target.spaceId, tableId, fieldId: target.field.id, imageOnly: target.field.settings.image_only === true };
    const upload = await ledger.storeNew(storage, owner, source, content, (problem) => invalidParameters(problem));
    try {
      const files = await records.editFileField(actor, tableId, recordId, fieldSlug, async (current, field, trx) => {
        const next = [...attachmentsOf(current), upload.attachment];
        if (next.length > maxAttachmentsPerField) throw new ValidationError(`Invalid value for field ${field.slug}: at most ${maxAttachmentsPerField} attachments`);
        await ledger.markLiveIn(trx, upload.attachment, owner);
        return next;
      });
      return { field_id: fieldSlug, files: files as Attachment[] };
    } catch (error) {
      await upload.remove().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The attachment `path` of the field on the record, its stored file and the store holding it:
   * 400 `Attachment not found` otherwise. Every read of a record's file (files/get, download,
   * thumbnails) passes here: the caller must read the field, and the path must be in it.
   */
  async function locate(actor: Actor, tableId: number, recordId: number, ref: FileRef): Promise<LocatedFile> {
    const target = await records.fileField(actor, tableId, recordId, ref.fieldSlug, 'read');
    const attachment = attachmentsOf(target.current).find((a) => a.path === ref.path);
    if (!attachment) throw attachmentNotFound();
    const file = await ledger.findFile(target.accountId, ref.path);
    if (!file || file.space_id !== target.spaceId) throw attachmentNotFound();
    return { attachment: presentFile(file), fileId: file.id, store: await deps.storage.holding(file), blobKey: file.blob_key, declaredSize: Number(file.size) };
  }

  /** files/get and the raw download: `{field_id, path}` located, and the blob's size asked of its store. */
  async function find(actor: Actor, tableId: number, recordId: number, body: unknown): Promise<OpenedFile> {
    const file = await locate(actor, tableId, recordId, fileRefOf(body));
    const stat = await file.store.stat(file.blobKey);
    return {
      attachment: file.attachment,
      size: stat?.size ?? file.declaredSize,
      open: (range) => file.store.get(file.blobKey, range),
    };
  }

  return {
    /** files/create: `data` arrives decoded (a Buffer) from the body parser, or as base64 text. */
    async createFile(actor: Actor, tableId: number, recordId: number, body: unknown) {
      const input = checkObjectBody(body, ['field_id', 'name', 'type', 'data']);
      const fieldSlug = requireText(input, 'field_id');
      const name = requireText(input, 'name');
      const type = optionalText(input, 'type');
      let bytes = input.data;
      if (bytes === undefined) throw invalidParameters('data is required');
      if (typeof bytes === 'string') bytes = decodeBase64(bytes);
      if (!Buffer.isBuffer(bytes)) throw invalidParameters('data must be base64 text');
      if (bytes.length > maxFileBytes) throw invalidParameters('data is too large');
      return append(actor, tableId, recordId, fieldSlug, { name: cleanDisplayName(name, 'file'), type }, { bytes });
    },

    /** The raw upload: the body is the file, streamed to storage as it arrives. */
    uploadFile(actor: Actor, tableId: number, recordId: number, query: { field_id?: string; name?: string }, type: string | null, stream: Readable) {
      const fieldSlug = requireText(query, 'field_id');
      const name = requireText(query, 'name');
      return append(actor, tableId, recordId, fieldSlug, { name: cleanDisplayName(name, 'file'), type }, { stream });
    },

    /** files/delete: exactly one attachment leaves the field; the others stay in their order. */
    async deleteFile(actor: Actor, tableId: number, recordId: number, body: unknown) {
      const input = checkObjectBody(body, ['field_id', 'path']);
      const fieldSlug = requireText(input, 'field_id');
      const path = requireText(input, 'path');
      const files = await records.editFileField(actor, tableId, recordId, fieldSlug, async (current, field, trx) => {
        const list = attachmentsOf(current);
        const index = list.findIndex((a) => a.path === path);
        if (index === -1) throw attachmentNotFound();
        const [removed] = list.splice(index, 1);
        await ledger.releaseIn(trx, removed);
        return list.length === 0 ? null : list;
      });
      return { field_id: fieldSlug, files: attachmentsOf(files) };
    },

    /** files/get and the raw download: the attachment must be in that field of that record. */
    openFile: find,

    /** The same checks, without touching the storage: for reads that may not need the bytes (a cached thumbnail). */
    locateFile: locate,
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
