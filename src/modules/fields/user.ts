import { sql } from 'kysely';
import type { Field } from './field.js';
import type { FieldType } from './field-type.js';
import type { UserSummary, WriteContext } from './value-context.js';
import { compareEmptiness, compareScalar, describe, FieldValueError, filterError, isEmptyInput, matchNothing, unsupportedOperator, storedIds } from './value-helpers.js';

/** One user reference (id, email, `{id}`/`{email}`, `@me`) → a current member of the space. */
function resolveMember(item: unknown, field: Field, members: { byId: Map<number, UserSummary>; byEmail: Map<string, UserSummary> }, ctx: WriteContext): number {
  let member: UserSummary | undefined;
  if (item === '@me') member = members.byId.get(ctx.actor.userId);
  else if (typeof item === 'number' && Number.isInteger(item)) member = members.byId.get(item);
  else if (typeof item === 'string') member = members.byEmail.get(item.trim().toLowerCase());
  else if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
    const { id, email } = item as { id?: unknown; email?: unknown };
    if (id !== undefined) return resolveMember(id, field, members, ctx);
    if (email !== undefined) return resolveMember(email, field, members, ctx);
    throw new FieldValueError(field, `a user object needs id or email, got ${describe(item)}`);
  } else throw new FieldValueError(field, `expected a user id, email, object or @me, got ${describe(item)}`);
  if (!member) throw new FieldValueError(field, `${describe(item)} is not a member of this space`);
  return member.id;
}

/** A filter value naming one user: an integer id, a string (id, email, `@me`), or `{id}` / `{email}`; undefined otherwise. */
function userReference(value: unknown): number | string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { id, email } = value as { id?: unknown; email?: unknown };
    return id !== undefined ? userReference(id) : typeof email === 'string' ? email : undefined;
  }
  return undefined;
}

export const userField: FieldType = {
  name: 'user',
  multiplicity: 'optional',
  settingKeys: [],
  parseSettings: () => ({}),
  columnType: () => 'integer',
  sortable: false,
  searchable: false,
  matchable: true,
  async toStored(input, field, ctx) {
    if (isEmptyInput(input)) return null;
    const members = await ctx.spaceMembers();
    const ids = [...new Set((Array.isArray(input) ? input : [input]).map((item) => resolveMember(item, field, members, ctx)))];
    if (field.multiple) return ids;
    if (ids.length > 1) throw new FieldValueError(field, 'only one user is allowed');
    return ids[0];
  },
  readsOtherRows: true,
  readMany(stored, field, ctx) {
    const present = (users: ReadonlyMap<number, UserSummary>) =>
      field.multiple
        ? stored.map((value) => storedIds(value).map((id) => users.get(id)).filter((u): u is UserSummary => u !== undefined))
        : stored.map((value) => (value === null || value === undefined ? null : (users.get(Number(value)) ?? null)));
    const known = ctx.knownUsers();
    return known ? present(known) : ctx.users().then(present);
  },
  async compileFilter(op, value, field, ctx) {
    if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
    if (op !== 'eq' && op !== 'ne') throw unsupportedOperator(field, op);
    if (value === null || value === '') return compareEmptiness(op === 'eq' ? 'empty' : 'not_empty', ctx.column);
    const reference = userReference(value);
    if (reference === undefined) throw filterError(field, `expected a user id, email or @me, got ${describe(value)}`);
    const resolved = await ctx.resolveUserReference(reference);
    // Nobody matches an unknown email or an id beyond the column's range.
    const userId = resolved !== null && resolved >= 1 && resolved <= 2_147_483_647 ? resolved : null;
    if (userId === null) return op === 'eq' ? matchNothing : sql<boolean>`1 = 1`;
    if (!field.multiple) return compareScalar(op, ctx.column, userId);
    const includes = ctx.dialect.jsonArrayIncludes(ctx.column, userId);
    return op === 'eq' ? includes : sql<boolean>`(${ctx.column} is null or not ${includes})`;
  },
};
