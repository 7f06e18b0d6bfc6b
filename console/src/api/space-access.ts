import type { Field } from './types';

/*
 * The signed-in user's role in a space and what it allows, as pure functions (no API here: the
 * hook that feeds them is api/space-role.ts).
 */

/** A member's role in a space (CONTRACT §2); the account's owner is an admin of every space. */
export type Role = 'admin' | 'editor' | 'reader';

/**
 * What the signed-in user may do in one space, as the server decides it (src/modules: records'
 * record-writer.ts, spaces' space-access.ts, views.service.ts). Whatever is false here the
 * console does not offer at all: the server would refuse it with a 403.
 */
export interface SpaceAccess {
  /** Null while it is not known yet, and for a user with no role in the space. */
  role: Role | null;
  /** Create, change, delete and restore records, their files and comments, import CSV: editors and admins. */
  canWriteRecords: boolean;
  /** Create, rename and delete tables, add, change and delete fields: admins. */
  canManageTables: boolean;
  /** Create, save, delete views and set the table's default one: admins. */
  canManageViews: boolean;
  /** May this field of a record be written: `members` by editors and admins, `admins` by admins, `none` by nobody. */
  canEditField(field: Pick<Field, 'editable_by'>): boolean;
}

function accessOf(role: Role | null): SpaceAccess {
  const writes = role === 'admin' || role === 'editor';
  return {
    role,
    canWriteRecords: writes,
    canManageTables: role === 'admin',
    canManageViews: role === 'admin',
    canEditField: (field) => writes && (field.editable_by === 'admins' ? role === 'admin' : field.editable_by !== 'none'),
  };
}

/** One object per role: components comparing it between renders see the same one. */
const byRole = new Map<Role | null, SpaceAccess>((['admin', 'editor', 'reader', null] as const).map((role) => [role, accessOf(role)]));

export function spaceAccess(role: Role | null): SpaceAccess {
  return byRole.get(role)!;
}

export interface MeAnswer {
  user: { id: number };
  /** Absent in the login answer (queries.ts switchSession reads `me` again for it). */
  is_owner?: boolean;
}

const roles: readonly string[] = ['admin', 'editor', 'reader'];

/**
 * The signed-in user's role in a space from `auth/me` and the space's `members/list`: admin for
 * the account's owner (never listed), else the role of the member who is them, else none.
 * Undefined while what it needs is not known yet.
 */
export function roleInSpace(me: MeAnswer | null | undefined, members: readonly { user_id: number; role: string }[] | undefined): Role | null | undefined {
  if (me === null) return null;
  if (me === undefined || me.is_owner === undefined) return undefined;
  if (me.is_owner) return 'admin';
  if (members === undefined) return undefined;
  const role = members.find((member) => member.user_id === me.user.id)?.role;
  return role !== undefined && roles.includes(role) ? (role as Role) : null;
}
