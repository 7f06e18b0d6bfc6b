import type { Kysely } from 'kysely';
import { prepareQuery, rowsOfValues } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;
export type CommentRow = Omit<SystemSchema['comments'], 'id'> & { id: number };
export type NewComment = Omit<CommentRow, 'id'>;

const commentColumns = ['account_id', 'table_id', 'record_id', 'user_id', 'user_name', 'api_key_id', 'content', 'attachments_json', 'type', 'status', 'email_json', 'created_at', 'updated_at'] as const satisfies readonly (keyof NewComment)[];

const insertCommentRow = prepareQuery((db: Db, ...values: unknown[]) =>
  db
    .insertInto('comments')
    .values(rowsOfValues(commentColumns, 1, values)[0] as NewComment)
    .returning('id'),
);

/** Compiled once: a comment's statements run on every create (prepared-query.ts). */
export async function insertComment(db: Db, comment: NewComment): Promise<number> {
  const [row] = await insertCommentRow(db, ...commentColumns.map((column) => comment[column]));
  return Number(row.id);
}

export async function findComment(db: Db, tableId: number, recordId: number, commentId: number): Promise<CommentRow | undefined> {
  return (await db.selectFrom('comments').selectAll().where('id', '=', commentId).where('table_id', '=', tableId).where('record_id', '=', recordId).executeTakeFirst()) as CommentRow | undefined;
}

/**
 * A page of a record's comments counted from the newest: offset 0 is the newest `limit`.
 * Ordered by id, which grows with every comment, so equal timestamps never reorder, repeat or
 * skip a comment between pages. Answered oldest to newest within the page.
 */
export async function listCommentPage(db: Db, tableId: number, recordId: number, limit: number, offset: number): Promise<CommentRow[]> {
  const rows = (await db
    .selectFrom('comments')
    .selectAll()
    .where('table_id', '=', tableId)
    .where('record_id', '=', recordId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()) as CommentRow[];
  return rows.reverse();
}

export async function updateComment(db: Db, commentId: number, changes: { content: string; updated_at: string }): Promise<void> {
  await db.updateTable('comments').set(changes).where('id', '=', commentId).execute();
}

export async function deleteComment(db: Db, commentId: number): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', commentId).execute();
}

/** Deletes the comments of deleted records, answering them (their files are released). */
export async function deleteRecordComments(db: Db, tableId: number, recordIds: readonly number[]): Promise<CommentRow[]> {
  if (recordIds.length === 0) return [];
  const rows = (await db.selectFrom('comments').selectAll().where('table_id', '=', tableId).where('record_id', 'in', recordIds).execute()) as CommentRow[];
  if (rows.length > 0) await db.deleteFrom('comments').where('table_id', '=', tableId).where('record_id', 'in', recordIds).execute();
  return rows;
}
