import type { Readable } from 'node:stream';
import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { checkObjectBody, invalidParameters } from '../../shared/body-checks.js';
import { stripControlCharacters } from '../../shared/display-name.js';
import { ErrorCode, ForbiddenError, ValidationError } from '../../shared/errors.js';
import { lookupIdOf } from '../../shared/ids.js';
import type { Actor } from '../auth/actor.js';
import type { Attachment } from '../fields/attachment.js';
import { cleanDisplayName } from '../files/attachment-path.js';
import { decodeBase64, maxFileBytes } from '../files/file-bytes.js';
import { commentFileField, presentFile, type FileLedgerService, type StoredUpload } from '../files/file-ledger.js';
import type { FileStorage } from '../files/file-storage.js';
import * as notifications from '../notifications/notifications.service.js';
import type { RecordPlace, RecordsService } from '../records/records.service.js';
import type { WriteUnit } from '../changes/write-unit.js';
import type { ChangeDraft, ChangeKind } from '../changes/change.js';
import { listSpaceMemberIds } from '../spaces/spaces.service.js';
import type { UsersService } from '../users/users.service.js';
import * as comments from './comments.repository.js';
import { composeEml, emailAuthorName, parseInboundEmail, type InboundEmail } from './email-message.js';
import { mentionedUserIds } from './mentions.js';

const maxContentLength = 100_000;
const maxAttachments = 20;
const defaultLimit = 20;
const maxLimit = 100;
const uploadPath = /^\/s\d+\/[0-9a-f]{32}-[A-Za-z0-9._-]{1,100}$/;

const invalid = invalidParameters;
const commentNotFound = () => new ValidationError('Comment not found', ErrorCode.commentNotFound);

function parseContent(raw: unknown, required: boolean): string {
  if (raw === undefined || raw === null) {
    if (required) throw invalid('content is required');
    return '';
  }
  if (typeof raw !== 'string') throw invalid('content must be a string');
  if (raw.length > maxContentLength) throw invalid(`content must be at most ${maxContentLength} characters`);
  return raw;
}

/** Attachment objects of comments/upload: only their paths count (what they are comes from the ledger). */
function parseAttachmentPaths(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid('attachments must be an array of attachment objects from comments/upload');
  if (raw.length > maxAttachments) throw invalid(`attachments takes at most ${maxAttachments} files`);
  const paths = raw.map((item, index) => {
    const path = typeof item === 'object' && item !== null ? (item as { path?: unknown }).path : undefined;
    if (typeof path !== 'string') throw invalid(`attachment ${index} must be an attachment object with a path`);
    if (!uploadPath.test(path)) throw invalid(`attachment ${index} has an unsafe path: ${JSON.stringify(path.slice(0, 120))}`);
    return path;
  });
  if (new Set(paths).size !== paths.length) throw invalid('an attachment is listed twice');
  return paths;
}

function parsePaging(query: { limit?: unknown; offset?: unknown }): { limit: number; offset: number } {
  const number = (raw: unknown, fallback: number) => (raw === undefined || raw === '' ? fallback : typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : NaN);
  const limit = number(query.limit, defaultLimit);
  const offset = number(query.offset, 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) throw invalid(`limit must be an integer from 1 to ${maxLimit}`);
  if (!Number.isInteger(offset) || offset < 0) throw invalid('offset must be a non-negative integer');
  return { limit, offset };
}

export interface CommentObject {
  id: number;
  table_id: number;
  record_id: number;
  user_id: number;
  user_name: string;
  api_key_id: number | null;
  content: string;
  attachments: Attachment[];
  created_at: string;
  updated_at: string | null;
  type: string;
  status: string | null;
  email?: Record<string, unknown>;
}

function present(row: comments.CommentRow): CommentObject {
  const comment: CommentObject = {
    id: row.id,
    table_id: row.table_id,
    record_id: row.record_id,
    user_id: row.user_id,
    user_name: row.user_name,
    api_key_id: row.api_key_id,
    content: row.content,
    attachments: JSON.parse(row.attachments_json) as Attachment[],
    created_at: row.created_at,
    updated_at: row.updated_at,
    type: row.type,
    status: row.status,
  };
  if (row.email_json) comment.email = JSON.parse(row.email_json) as Record<string, unknown>;
  return comment;
}

/** Every stored file a comment holds: its attachments and its archived e-mail. */
function filesOf(row: comments.CommentRow): Attachment[] {
  const email = row.email_json ? (JSON.parse(row.email_json) as { eml: Attachment | null }) : null;
  return [...(JSON.parse(row.attachments_json) as Attachment[]), ...(email?.eml ? [email.eml] : [])];
}

/**
 * Comments on records: read by everyone who sees the table, written by those who may change
 * its records. Each write is one transaction with what it causes: its files made live, the
 * notifications of mentioned users and subscribers, subscriptions, and the audit event of an
 * API-made comment.
 */
export function createCommentsService(deps: { database: Database; clock: Clock; unit: WriteUnit; records: RecordsService; users: UsersService; ledger: FileLedgerService; storage: FileStorage }) {
  const { db } = deps.database;
  const now = () => formatDateTime(deps.clock.now());

  /** Who a new comment is by: a session's user, or for any API key the key (`user_id` 0). */
  async function authorOf(actor: Actor): Promise<{ user_id: number; user_name: string; api_key_id: number | null }> {
    // Cleaned here too: names saved before control characters were stripped on save.
    if (actor.via === 'session') return { user_id: actor.userId, user_name: stripControlCharacters((await deps.users.findUser(actor.userId))?.name ?? actor.userEmail), api_key_id: null };
    return { user_id: 0, user_name: `API: ${stripControlCharacters(actor.keyName ?? '')}`, api_key_id: actor.keyId };
  }

  /** The author may change a comment: the same API key, or the same user in a session. */
  function assertAuthor(actor: Actor, row: comments.CommentRow): void {
    const mine = row.api_key_id !== null ? actor.keyId === row.api_key_id : actor.via === 'session' && row.user_id !== 0 && actor.userId === row.user_id;
    if (!mine) throw new ForbiddenError("Only the comment's author can change it", ErrorCode.forbidden);
  }

  /**
   * Inside a comment's transaction: mentioned members (newly mentioned, on an edit) get a
   * `comment.mention` and follow the record; on a new comment, the record's other followers
   * get a `comment.created`, and a user author follows it. The person who wrote the comment
   * (a session's user, or a personal key's: `user_id` is 0 for any key) is told of neither;
   * an account key is the account, not its owner in person, and an e-mail is its sender's.
   */
  async function notify(trx: Database['db'], place: RecordPlace, row: comments.CommentRow, previousContent: string | null): Promise<void> {
    const members = await listSpaceMemberIds(trx, place.spaceId);
    members.add(place.actor.ownerUserId);
    const writer = row.type === 'comment' && place.actor.via !== 'account_key' ? place.actor.userId : null;
    const before = new Set(previousContent === null ? [] : mentionedUserIds(previousContent));
    const mentioned = mentionedUserIds(row.content).filter((id) => !before.has(id) && members.has(id) && id !== writer);
    const stamp = now();
    const base = { account_id: place.accountId, actor_user_id: row.user_id, actor_name: row.user_name, table_id: place.tableId, record_id: place.recordId, comment_id: row.id, created_at: stamp };
    await notifications.insertNotifications(trx, mentioned.map((userId) => ({ ...base, user_id: userId, kind: 'comment.mention' })));
    await notifications.subscribe(trx, place.tableId, place.recordId, mentioned, stamp);
    if (previousContent !== null) return;
    const followers = (await notifications.listSubscribers(trx, place.tableId, place.recordId)).filter((id) => id !== writer && !mentioned.includes(id) && members.has(id));
    await notifications.insertNotifications(trx, followers.map((userId) => ({ ...base, user_id: userId, kind: 'comment.created' })));
    if (row.user_id !== 0) await notifications.subscribe(trx, place.tableId, place.recordId, [row.user_id], stamp);
  }

  /** Records an API key's change to a comment for the account's audit. */
  async function audit(trx: Database['db'], place: RecordPlace, kind: string, commentId: number): Promise<void> {
    if (place.actor.keyId === null) return;
    await notifications.insertEvent(trx, { account_id: place.accountId, kind, user_id: place.actor.userId, api_key_id: place.actor.keyId, table_id: place.tableId, record_id: place.recordId, comment_id: commentId, created_at: now() });
  }

  /** A comment's writes go through the write unit, as its record's do: its changes join the record's history. */
  function write<T>(place: RecordPlace, work: (trx: Database['db'], changes: ChangeDraft[]) => Promise<T>): Promise<T> {
    return deps.unit.run({ accountId: place.accountId, spaceId: place.spaceId, tableId: place.tableId, actor: place.actor }, work);
  }

  /** Inserts a comment with its files claimed, and what it causes, in one transaction. */
  async function insert(place: RecordPlace, comment: Omit<comments.NewComment, 'attachments_json' | 'account_id' | 'table_id' | 'record_id' | 'created_at' | 'updated_at'>, paths: readonly string[], eml?: StoredUpload) {
    return write(place, async (trx, changes) => {
      const owner = { accountId: place.accountId, tableId: place.tableId, spaceId: place.spaceId };
      const attachments = await deps.ledger.claimCommentFiles(trx, owner, paths);
      let emailJson = comment.email_json;
      if (eml) {
        await deps.ledger.claimCommentFiles(trx, owner, [eml.attachment.path]);
        emailJson = JSON.stringify({ ...(JSON.parse(emailJson!) as object), eml: eml.attachment });
      }
      const values: comments.NewComment = { ...comment, email_json: emailJson, account_id: place.accountId, table_id: place.tableId, record_id: place.recordId, attachments_json: JSON.stringify(attachments), created_at: now(), updated_at: null };
      const row = { ...values, id: await comments.insertComment(trx, values) };
      await notify(trx, place, row, null);
      await audit(trx, place, 'comment.created', row.id);
      changes.push(commentChange('comment.created', row, null, row));
      return present(row);
    });
  }

  /** The archived message of an e-mail comment, stored as a file of the comment (none when the space has no storage). */
  async function archiveEmail(place: RecordPlace, email: InboundEmail, paths: readonly string[]): Promise<StoredUpload | undefined> {
    const target = await deps.storage.forSpace(place.spaceId);
    if (!target) return undefined;
    const files = await Promise.all(
      paths.map(async (path) => {
        const file = await deps.ledger.findPendingUpload(place.accountId, place.tableId, path);
        if (!file) return null;
        const chunks: Buffer[] = [];
        for await (const chunk of await (await deps.storage.holding(file)).get(file.blob_key)) chunks.push(chunk as Buffer);
        return { filename: file.name, contentType: file.type, content: Buffer.concat(chunks) };
      }),
    );
    const eml = await composeEml(email, deps.clock.now(), files.filter((file) => file !== null));
    const owner = { accountId: place.accountId, spaceId: place.spaceId, tableId: place.tableId, fieldId: commentFileField, imageOnly: false };
    return deps.ledger.storeNew(target, owner, { name: 'message.eml', type: 'message/rfc822' }, { bytes: eml }, invalid);
  }

  return {
    async listComments(actor: Actor, tableId: number, recordId: number, query: { limit?: unknown; offset?: unknown }) {
      const { limit, offset } = parsePaging(query);
      await deps.records.recordAccess(actor, tableId, recordId, 'read');
      return (await comments.listCommentPage(db, tableId, recordId, limit, offset)).map(present);
    },

    async createComment(actor: Actor, tableId: number, recordId: number, body: unknown) {
      const input = checkObjectBody(body, ['content', 'attachments']);
      const paths = parseAttachmentPaths(input.attachments);
      const content = parseContent(input.content, paths.length === 0);
      if (content.trim() === '' && paths.length === 0) throw invalid('content must not be empty without attachments');
      const place = await deps.records.recordAccess(actor, tableId, recordId, 'write');
      return insert(place, { ...(await authorOf(place.actor)), content, type: 'comment', status: null, email_json: null }, paths);
    },

    async createEmailComment(actor: Actor, tableId: number, recordId: number, body: unknown) {
      const input = checkObjectBody(body, ['from', 'to', 'subject', 'body', 'attachments', 'messageId', 'inReplyTo']);
      const email = parseInboundEmail(input, 'tabula.invalid');
      const paths = parseAttachmentPaths(input.attachments);
      const place = await deps.records.recordAccess(actor, tableId, recordId, 'write');
      const eml = await archiveEmail(place, email, paths);
      const emailJson = JSON.stringify({ from: email.from, to: email.to, subject: email.subject, message_id: email.messageId, in_reply_to: email.inReplyTo, eml: null });
      try {
        return await insert(place, { user_id: 0, user_name: emailAuthorName(email), api_key_id: place.actor.keyId, content: email.body, type: 'email_in', status: 'received', email_json: emailJson }, paths, eml);
      } catch (error) {
        await eml?.remove().catch(() => undefined);
        throw error;
      }
    },

    /** A file for a comment to come: stored now, attached by comments/create within the hour. */
    async upload(actor: Actor, tableId: number, recordId: number, body: unknown): Promise<Attachment> {
      const input = checkObjectBody(body, ['name', 'type', 'data']);
      const name = typeof input.name === 'string' && input.name !== '' ? input.name : null;
      if (name === null) throw invalid('name is required');
      const type = input.type === undefined || input.type === null ? null : typeof input.type === 'string' ? input.type : null;
      if (input.type !== undefined && input.type !== null && type === null) throw invalid('type must be a string');
      let bytes = input.data;
      if (bytes === undefined) throw invalid('data is required');
      if (typeof bytes === 'string') bytes = decodeBase64(bytes);
      if (!Buffer.isBuffer(bytes)) throw invalid('data must be base64 text');
      if (bytes.length > maxFileBytes) throw invalid('data is too large');
      const place = await deps.records.recordAccess(actor, tableId, recordId, 'write');
      const target = await deps.storage.requireForSpace(place.spaceId);
      const owner = { accountId: place.accountId, spaceId: place.spaceId, tableId, fieldId: commentFileField, imageOnly: false };
      return (await deps.ledger.storeNew(target, owner, { name: cleanDisplayName(name, 'file'), type }, { bytes }, invalid)).attachment;
    },

    /** A file of a comment (an attachment or its archived e-mail): 400 `Attachment not found` for any other path. */
    async openFile(actor: Actor, tableId: number, recordId: number, body: unknown): Promise<{ attachment: Attachment; size: number; open(): Promise<Readable> }> {
      const input = checkObjectBody(body, ['comment_id', 'path']);
      if (!Number.isInteger(input.comment_id)) throw invalid('comment_id must be a comment id');
      if (typeof input.path !== 'string' || input.path === '') throw invalid('path is required');
      const place = await deps.records.recordAccess(actor, tableId, recordId, 'read');
      const row = await comments.findComment(db, tableId, recordId, lookupIdOf(input.comment_id as number));
      if (!row) throw commentNotFound();
      const attachment = filesOf(row).find((file) => file.path === input.path);
      const file = attachment && (await deps.ledger.findFile(place.accountId, attachment.path));
      if (!file) throw new ValidationError('Attachment not found', ErrorCode.attachmentNotFound);
      const store = await deps.storage.holding(file);
      return { attachment: presentFile(file), size: Number(file.size), open: () => store.get(file.blob_key) };
    },

    async updateComment(actor: Actor, tableId: number, recordId: number, commentId: number, body: unknown) {
      const input = checkObjectBody(body, ['content']);
      const content = parseContent(input.content, true);
      const place = await deps.records.recordAccess(actor, tableId, recordId, 'write');
      return write(place, async (trx, changes) => {
        const row = await comments.findComment(trx, tableId, recordId, commentId);
        if (!row) throw commentNotFound();
        assertAuthor(place.actor, row);
        if (content.trim() === '' && (JSON.parse(row.attachments_json) as unknown[]).length === 0) throw invalid('content must not be empty without attachments');
        const changed = { ...row, content, updated_at: now() };
        await comments.updateComment(trx, commentId, { content, updated_at: changed.updated_at });
        await notify(trx, place, changed, row.content);
        await audit(trx, place, 'comment.updated', commentId);
        if (row.content !== content) changes.push(commentChange('comment.updated', row, row, changed));
        return present(changed);
      });
    },

    async deleteComment(actor: Actor, tableId: number, recordId: number, commentId: number) {
      const place = await deps.records.recordAccess(actor, tableId, recordId, 'write');
      await write(place, async (trx, changes) => {
        const row = await comments.findComment(trx, tableId, recordId, commentId);
        if (!row) throw commentNotFound();
        assertAuthor(place.actor, row);
        changes.push(commentChange('comment.deleted', row, row, null));
        await comments.deleteComment(trx, commentId);
        await deps.ledger.releasePaths(trx, filesOf(row).map((file) => file.path));
        await audit(trx, place, 'comment.deleted', commentId);
      });
      return { id: commentId, deleted: true as const };
    },

    /** Deleted records take their comments, their comments' files (to reclaim) and their follow-ups along. */
    async releaseRecords(trx: Database['db'], tableId: number, recordIds: readonly number[]): Promise<void> {
      const rows = await comments.deleteRecordComments(trx, tableId, recordIds);
      await deps.ledger.releasePaths(trx, rows.flatMap(filesOf).map((file) => file.path));
      await notifications.deleteRecordFollowUps(trx, tableId, recordIds);
    },
  };
}

/**
 * A comment's change: its content (and its attachments, when it has any) before and after,
 * as a comment presents them.
 */
function commentChange(kind: ChangeKind, row: comments.CommentRow, before: comments.CommentRow | null, after: comments.CommentRow | null): ChangeDraft {
  const valuesOf = (comment: comments.CommentRow | null): Record<string, unknown> => {
    if (!comment) return {};
    const attachments = JSON.parse(comment.attachments_json) as Attachment[];
    return attachments.length > 0 ? { content: comment.content, attachments } : { content: comment.content };
  };
  const was = valuesOf(before);
  const is = valuesOf(after);
  const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])].filter((key) => JSON.stringify(was[key]) !== JSON.stringify(is[key]));
  return { kind, recordId: row.record_id, commentId: row.id, fields, before: pick(was, fields), after: pick(is, fields) };
}

function pick(values: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in values).map((key) => [key, values[key]]));
}

export type CommentsService = ReturnType<typeof createCommentsService>;
