import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/** An auto-incrementing integer primary key `id`, as this release made it (migrations never call current code). */
function addIdColumn<T extends string>(dialect: DialectName, table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'serial', (c: ColumnDefinitionBuilder) => c.primaryKey());
}

/** Accounts, users, spaces, members, tables, fields, indexes, API keys, sessions. Frozen once released. */
export function foundationMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const schema = db.schema;
      await addIdColumn(dialect, schema.createTable('accounts'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('owner_user_id', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await addIdColumn(dialect, schema.createTable('users'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await addIdColumn(dialect, schema.createTable('spaces'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('storage_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await schema.createIndex('spaces_account').on('spaces').column('account_id').execute();
      await schema
        .createTable('members')
        .addColumn('space_id', 'integer', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('members_pk', ['space_id', 'user_id'])
        .execute();
      await schema.createIndex('members_user').on('members').column('user_id').execute();
      await addIdColumn(dialect, schema.createTable('tables'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('space_id', 'integer', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('title_field_id', 'integer')
        // Bumped by every field change: processes cache field lists keyed by it.
        .addColumn('schema_version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await schema.createIndex('tables_space').on('tables').column('space_id').execute();
      // Exact row counts kept in step with inserts and deletes: `count` of a whole table is O(1).
      await schema
        .createTable('table_row_counts')
        .addColumn('table_id', 'integer', (c) => c.primaryKey().references('tables.id').onDelete('cascade'))
        .addColumn('row_count', 'bigint', (c) => c.notNull())
        .execute();
      await addIdColumn(dialect, schema.createTable('fields'))
        .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('settings_json', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addUniqueConstraint('fields_table_slug', ['table_id', 'slug'])
        .execute();
      await addIdColumn(dialect, schema.createTable('table_indexes'))
        .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('field_ids_json', 'text', (c) => c.notNull())
        .addUniqueConstraint('table_indexes_name', ['table_id', 'name'])
        .execute();
      await addIdColumn(dialect, schema.createTable('api_keys'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('read_only', 'integer', (c) => c.notNull())
        .addColumn('space_ids_json', 'text')
        .addColumn('ip_allow_json', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
