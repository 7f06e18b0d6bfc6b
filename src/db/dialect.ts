import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The real differences between SQLite and PostgreSQL, in one place. Everything else goes
 * through Kysely unchanged.
 */
export interface Dialect {
  readonly name: DialectName;
  /** Adds an auto-incrementing integer primary key named `id`. */
  addIdColumn<T extends string>(table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any>;
  /** Column type of a JSON array or object. */
  readonly jsonType: 'text' | 'jsonb';
  /** Column type of a boolean. */
  readonly booleanType: 'integer' | 'boolean';
  /** A JSON value as a statement parameter for a `jsonType` column. */
  jsonParam(value: unknown): RawBuilder<unknown> | string;
  /** Quotes an identifier we generated ourselves (never user input). */
  quote(identifier: string): string;
}

const sqliteDialect: Dialect = {
  name: 'sqlite',
  addIdColumn: (table) => table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()),
  jsonType: 'text',
  booleanType: 'integer',
  jsonParam: (value) => JSON.stringify(value),
  quote: (identifier) => `"${identifier}"`,
};

const postgresDialect: Dialect = {
  name: 'postgres',
  addIdColumn: (table) => table.addColumn('id', 'serial', (c: ColumnDefinitionBuilder) => c.primaryKey()),
  jsonType: 'jsonb',
  booleanType: 'boolean',
  jsonParam: (value) => sql`${JSON.stringify(value)}::jsonb`,
  quote: (identifier) => `"${identifier}"`,
};

export function getDialect(name: DialectName): Dialect {
  return name === 'sqlite' ? sqliteDialect : postgresDialect;
}
