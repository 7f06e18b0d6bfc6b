import type { Actor } from '../auth/actor.js';

/** What a change did (CONTRACT section 7). */
export type ChangeKind = 'record.created' | 'record.updated' | 'record.deleted' | 'record.restored' | 'comment.created' | 'comment.updated' | 'comment.deleted';

export const changeKinds: readonly ChangeKind[] = ['record.created', 'record.updated', 'record.deleted', 'record.restored', 'comment.created', 'comment.updated', 'comment.deleted'];

/** Who made a change, as a change shows it. */
export interface ChangeActor {
  user_id: number | null;
  api_key_id: number | null;
  name: string;
}

/** A change as a write makes it, before the log gives it a seq and a time. */
export interface ChangeDraft {
  kind: ChangeKind;
  recordId: number;
  commentId?: number;
  /** Slugs whose value changed, with those values in the read form of a record. */
  fields: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** Where a write happens and who makes it: what every change of one write unit shares. */
export interface WriteScope {
  accountId: number;
  spaceId: number;
  tableId: number;
  actor: Actor;
}

/** A change as the log stores it. */
export interface ChangeRow {
  seq: number | string;
  kind: string;
  table_id: number;
  space_id: number;
  record_id: number;
  comment_id: number | null;
  at: string;
  actor_user_id: number | null;
  actor_api_key_id: number | null;
  actor_name: string;
  payload_json: string;
}

/** The columns all changes of one write share (where, when, who), as stored. */
export type ChangeCommon = Pick<ChangeRow, 'space_id' | 'table_id' | 'at' | 'actor_user_id' | 'actor_api_key_id' | 'actor_name'> & { account_id: number };

/**
 * The draft of a record change from its values before and after, in read form: only the slugs
 * whose value differs are kept; null when nothing differs (an update that changes nothing
 * appends nothing). Absent and null are alike; on create `before` is `{}`, on delete `after` is.
 */
export function recordChange(kind: ChangeKind, recordId: number, before: Record<string, unknown> | null, after: Record<string, unknown> | null): ChangeDraft | null {
  // A create or restore (nothing before) or a delete (nothing after): every value not empty is a
  // change, with nothing to compare (a batch of creates makes a thousand of these).
  if (before === null || after === null) return oneSidedChange(kind, recordId, before === null ? 'after' : 'before', before ?? after ?? {});
  const fields: string[] = [];
  const was: Record<string, unknown> = {};
  const is: Record<string, unknown> = {};
  const slugs = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const slug of slugs) {
    const old = before?.[slug] ?? null;
    const now = after?.[slug] ?? null;
    if (sameValue(old, now)) continue;
    fields.push(slug);
    if (before) was[slug] = old;
    if (after) is[slug] = now;
  }
  if (fields.length === 0 && kind === 'record.updated') return null;
  return { kind, recordId, fields, before: was, after: is };
}

function oneSidedChange(kind: ChangeKind, recordId: number, side: 'before' | 'after', data: Record<string, unknown>): ChangeDraft | null {
  const fields: string[] = [];
  const values: Record<string, unknown> = {};
  for (const slug in data) {
    const value = data[slug];
    if (isEmpty(value)) continue;
    fields.push(slug);
    values[slug] = value;
  }
  if (fields.length === 0 && kind === 'record.updated') return null;
  return { kind, recordId, fields, before: side === 'before' ? values : {}, after: side === 'after' ? values : {} };
}

/** Empty values (null, '', []) are one value, as filters treat them. */
function sameValue(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (a === b) return true;
  return a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b);
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The actor of a change: a key shows as `API: <name>` (as its comments do), the command line as `CLI`, a session as its user. */
export function changeActorOf(actor: Actor, userName: string | undefined): ChangeActor {
  if (actor.via === 'session') return { user_id: actor.userId, api_key_id: null, name: userName ?? actor.userEmail };
  if (actor.keyId === null) return { user_id: actor.userId, api_key_id: null, name: 'CLI' };
  return { user_id: actor.userId, api_key_id: actor.keyId, name: `API: ${actor.keyName}` };
}

/** The payload a change stores once and every reader sends as is. */
export function payloadOf(draft: ChangeDraft): string {
  return JSON.stringify({ fields: draft.fields, before: draft.before, after: draft.after });
}

/**
 * A queued row of several changes holds their payloads one a line (PostgreSQL's queue,
 * docs/decisions.md "Changes: one queued row per write"). A payload is JSON.stringify's text,
 * which escapes every line break; one that holds a line break anyway is refused rather than
 * stored as two changes.
 */
export function assertOneLineEach(payloads: readonly string[]): void {
  if (payloads.some((payload) => payload.includes('\n'))) throw new Error('a change payload holds a line break');
}

/**
 * A stored change as the JSON text of the API, built around its stored payload: a change is
 * read by many (lists, every stream subscriber) and serialised once.
 */
export function changeText(row: ChangeRow): string {
  const head = {
    seq: Number(row.seq),
    kind: row.kind,
    table_id: row.table_id,
    space_id: row.space_id,
    record_id: row.record_id,
    ...(row.comment_id === null ? {} : { comment_id: row.comment_id }),
    at: row.at,
    actor: { user_id: row.actor_user_id, api_key_id: row.actor_api_key_id, name: row.actor_name },
  };
  const text = JSON.stringify(head);
  return `${text.slice(0, -1)},${row.payload_json.slice(1)}`;
}
