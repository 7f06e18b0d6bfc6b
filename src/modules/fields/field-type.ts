import type { RawBuilder } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { Field, FieldSettings, FieldTypeName } from './field.js';
import type { Operator } from './operators.js';
import type { FilterContext, ReadContext, WriteContext } from './value-context.js';

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
  /** May a record's `title` come from this type? */
  readonly titleCapable: boolean;
  /** Can records be ordered by it? */
  readonly sortable: boolean;
  /** Does `search` look into it? Its stored value then feeds the search text. */
  readonly searchable: boolean;
  /**
   * One write value (every form the specification allows) → the stored value: a scalar, an
   * array for multi-valued fields, or null when empty. Throws a FieldValueError naming the problem.
   */
  toStored(input: unknown, field: Field, ctx: WriteContext): unknown | Promise<unknown>;
  /** Stored values of one field across a page of records → API values, resolved in one batch. */
  readMany(stored: readonly unknown[], field: Field, ctx: ReadContext): unknown[] | Promise<unknown[]>;
  /** A filter condition on this field → SQL, or a ValidationError `Invalid filter: …`. */
  compileFilter(op: Operator, value: unknown, field: Field, ctx: FilterContext): RawBuilder<boolean> | Promise<RawBuilder<boolean>>;
}
