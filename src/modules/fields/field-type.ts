import type { Kysely, RawBuilder } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { Field, FieldSettings, FieldTypeName } from './field.js';
import type { Operator } from './operators.js';
import type { FileLedger, FilterContext, ReadContext, WriteContext } from './value-context.js';

export type { FieldSettings, FieldTypeName };

export interface SettingsContext {
  accountId: number;
  /**
   * Whether the caller can see the table (lookup targets): of its account, in a space it may
   * see. A table it cannot see answers false, exactly like one that does not exist.
   */
  isVisibleTable(tableId: number): Promise<boolean>;
}

/**
 * One field type. Each lives in its own file and is listed once in registry.ts; records,
 * queries and the management API reach types only through this interface.
 */
export interface FieldType {
  readonly name: FieldTypeName;
  /** `single`: never multiple; `optional`: the definition chooses; `always`: always an array. */
  readonly multiplicity: 'single' | 'optional' | 'always';
  /** Definition keys this type understands besides the common ones. */
  readonly settingKeys: readonly string[];
  /** Validates the type-specific keys (unknown keys are rejected before). Throws ValidationError. */
  parseSettings(raw: FieldSettings, ctx: SettingsContext, previous?: FieldSettings): Promise<FieldSettings> | FieldSettings;
  /** Physical column type for one value of this type (multi-valued fields use the dialect's JSON type). */
  columnType(dialect: Dialect): string;
  /**
   * A record's `title` as text, from the stored value of its title field. Only types that have
   * it may be a table's title field (single-valued only).
   */
  titleText?(stored: unknown): string | null;
  /**
   * A single reference to a record of another table (a single lookup): that table's id. A
   * record read joins in the referenced record's title with the same statement.
   */
  titleTarget?(field: Field): number | undefined;
  /** Can records be ordered by it? */
  readonly sortable: boolean;
  /**
   * The ORDER BY key of a sortable type, from its column: text folds, a checkbox counts NULL as
   * unchecked. Absent: the column itself, and then only can the field's index (on the plain
   * column) deliver a page in that order (SQLite walks it: see selectRecordRows).
   */
  orderKey?(column: RawBuilder<unknown>, dialect: Dialect): RawBuilder<unknown>;
  /** Does `search` look into it? Its stored value then feeds the search text. */
  readonly searchable: boolean;
  /**
   * Can `records/upsert_batch` match records on it (`match_on`)? Only where equal stored values
   * (compared with `=` on the column) mean the same thing; a multi-valued field never is.
   */
  readonly matchable: boolean;
  /**
   * One write value (every form the specification allows) → the stored value: a scalar, an
   * array for multi-valued fields, or null when empty. Throws a FieldValueError naming the problem.
   */
  toStored(input: unknown, field: Field, ctx: WriteContext): unknown | Promise<unknown>;
  /**
   * The write values of this field in several records (a batch), before their toStored: looks up
   * in one go what they reference (lookup targets), so that each toStored finds it in the
   * request's cache instead of asking the database once per record. Inputs may be invalid:
   * toStored judges them.
   */
  prefetch?(inputs: readonly unknown[], field: Field, ctx: WriteContext): Promise<void>;
  /**
   * A single value's column as the driver returns it → the stored value, for a type whose column
   * holds something else (SQLite keeps booleans as 0/1). Never given null. Absent: the column
   * holds the stored value. Multi-valued fields are JSON arrays, decoded alike for every type
   * (column-values.ts), so this never sees them.
   */
  decode?(column: unknown): unknown;
  /** The inverse of decode: a stored single value (never null) → the statement parameter. */
  encode?(stored: unknown, dialect: Dialect): unknown;
  /**
   * Whether reading a value needs other rows (users, lookup titles): such values are presented
   * before a write transaction, never inside it (records/record-changes.ts).
   */
  readsOtherRows?: true;
  /**
   * A single value's read form as PostgreSQL JSON, made in SQL from its column: for a type whose
   * read form is its column's value (numbers, dates, a single select, a checkbox). It lets an
   * update make its change in the statement that writes (records/record-statements.ts); absent,
   * the change is made from readMany in the write unit's transaction.
   */
  columnReadForm?(column: RawBuilder<unknown>, field: Field): RawBuilder<unknown> | null;
  /** Stored values of one field across a page of records (decoded) → API values, resolved in one batch. */
  readMany(stored: readonly unknown[], field: Field, ctx: ReadContext): unknown[] | Promise<unknown[]>;
  /** A filter condition on this field → SQL, or a ValidationError `Invalid filter: …`. */
  compileFilter(op: Operator, value: unknown, field: Field, ctx: FilterContext): RawBuilder<boolean> | Promise<RawBuilder<boolean>>;

  // Lifecycle: optional hooks for types that do I/O or leave things behind. The record writer
  // and the deletions call them only for fields whose type has them (found once per field list,
  // lifecycle.ts), so a table without such fields pays nothing for them.

  /**
   * I/O a value needs, before the write transaction: fetch or decode, and store what it got
   * (a blob under a fresh key, never overwriting one). Runs once every value of the write has
   * passed toStored and the required checks, so nothing is stored for a write that is refused.
   * Returns the stored value to write and a cleanup, which the writer runs if the write then
   * fails or another field's prepare throws. A prepare that throws has undone its own work.
   */
  prepare?(stored: unknown, field: Field, ctx: WriteContext): Promise<PreparedValue>;
  /**
   * Work once the write committed, e.g. queue the blobs the new value replaced for reclaim.
   * `previous` is the value it replaced (undefined when the record was created). The record is
   * written whatever happens here: record a failure for a later retry rather than throw.
   */
  afterCommit?(change: CommittedChange, field: Field, ctx: WriteContext): Promise<void>;
  /**
   * Records were deleted: `stored` holds this field's values in them. Runs inside the deleting
   * transaction (`ctx.db`), so what it records (a reclaim queue entry) commits or rolls back
   * with the deletion; it must not delete anything outside the database itself.
   */
  onRecordsDeleted?(stored: readonly unknown[], field: Field, ctx: DeletionContext): Promise<void>;
  /**
   * The field is being deleted, alone or with its table or space. Runs inside that transaction
   * before the column is dropped: `fieldColumnName(field.id)` of `recordTableName(field.tableId)`
   * (physical-names.ts) still holds every value. Same rules as onRecordsDeleted.
   */
  onFieldDeleted?(field: Field, ctx: DeletionContext): Promise<void>;
}

/** What a type's prepare hands to the write. */
export interface PreparedValue {
  /** The stored value to write. */
  stored: unknown;
  /** Undoes the prepare's work (deletes what it stored); run when the write does not commit. */
  cleanup?(): Promise<void>;
}

/** One field's value as a committed write left it. */
export interface CommittedChange {
  stored: unknown;
  /** The stored value it replaced; undefined when the record was created. */
  previous: unknown;
}

/** Where the deletion hooks run: the deleting transaction. */
export interface DeletionContext {
  db: Kysely<any>;
  dialect: Dialect;
  files: FileLedger;
}
