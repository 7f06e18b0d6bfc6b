import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Comments on records, the notifications they cause, record subscriptions, and the audit
 * events of API-made changes. Comments belong to a table (deleted with it); the record they
 * are on lives in a record table of its own, so a record's deletion removes its comments
 * through the service (no foreign key can name a record). Frozen once released.
 */
export function commentsMigration(dialect: DialectName): Migration {
  const id = (table: any) => table.addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()));
  return {
    async up(db: Kysely<any>) {
      await id(db.schema.createTable('comments'))
        .addColumn('account_id', 'integer', (c: any) => c.notNull())
        .addColumn('table_id', 'integer', (c: any) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('record_id', 'integer', (c: any) => c.notNull())
        .addColumn('user_id', 'integer', (c: any) => c.notNull())
        .addColumn('user_name', 'text', (c: any) => c.notNull())
        .addColumn('api_key_id', 'integer')
        .addColumn('content', 'text', (c: any) => c.notNull())
        .addColumn('attachments_json', 'text', (c: any) => c.notNull())
        .addColumn('type', 'text', (c: any) => c.notNull())
        .addColumn('status', 'text')
        .addColumn('email_json', 'text')
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addColumn('updated_at', 'text')
        .execute();
      await db.schema.createIndex('comments_record').on('comments').columns(['table_id', 'record_id', 'id']).execute();

      await id(db.schema.createTable('notifications'))
        .addColumn('account_id', 'integer', (c: any) => c.notNull())
        .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c: any) => c.notNull())
        .addColumn('actor_user_id', 'integer', (c: any) => c.notNull())
        .addColumn('actor_name', 'text', (c: any) => c.notNull())
        .addColumn('table_id', 'integer', (c: any) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('record_id', 'integer', (c: any) => c.notNull())
        .addColumn('comment_id', 'integer', (c: any) => c.references('comments.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addColumn('read_at', 'text')
        .execute();
      await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('subscriptions')
        .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('subscriptions_pk', ['table_id', 'record_id', 'user_id'])
        .execute();

      await id(db.schema.createTable('events'))
        .addColumn('account_id', 'integer', (c: any) => c.notNull())
        .addColumn('kind', 'text', (c: any) => c.notNull())
        .addColumn('user_id', 'integer', (c: any) => c.notNull())
        .addColumn('api_key_id', 'integer')
        .addColumn('table_id', 'integer')
        .addColumn('record_id', 'integer')
        .addColumn('comment_id', 'integer')
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .execute();
      await db.schema.createIndex('events_account').on('events').columns(['account_id', 'id']).execute();
    },
  };
}
