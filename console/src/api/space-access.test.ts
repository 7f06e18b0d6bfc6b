import { describe, expect, it } from 'vitest';
import { makeField } from '../test-support/fields';
import { roleInSpace, spaceAccess } from './space-access';

const ada = { user: { id: 7 }, is_owner: false };
const members = [
  { user_id: 3, role: 'admin' },
  { user_id: 7, role: 'reader' },
  { user_id: 9, role: 'editor' },
];

describe('roleInSpace: the signed-in user’s role from auth/me and members/list', () => {
  it('is admin for the account’s owner, who is never listed, without waiting for the members', () => {
    expect(roleInSpace({ user: { id: 1 }, is_owner: true }, undefined)).toBe('admin');
    expect(roleInSpace({ user: { id: 1 }, is_owner: true }, [])).toBe('admin');
  });

  it('is the role of the member who is the user', () => {
    expect(roleInSpace(ada, members)).toBe('reader');
    expect(roleInSpace({ user: { id: 9 }, is_owner: false }, members)).toBe('editor');
    expect(roleInSpace({ user: { id: 3 }, is_owner: false }, members)).toBe('admin');
  });

  it('is none for a user the list does not hold, or with a role it does not know', () => {
    expect(roleInSpace({ user: { id: 42 }, is_owner: false }, members)).toBeNull();
    expect(roleInSpace(ada, [{ user_id: 7, role: 'owner' }])).toBeNull();
    expect(roleInSpace(null, members)).toBeNull();
  });

  it('is not known yet while the members load, or while `me` is the login answer (no is_owner)', () => {
    expect(roleInSpace(ada, undefined)).toBeUndefined();
    expect(roleInSpace({ user: { id: 7 } }, members)).toBeUndefined();
    expect(roleInSpace(undefined, members)).toBeUndefined();
  });
});

describe('spaceAccess: what each role may do, as the server decides', () => {
  it('lets readers change nothing, editors write records, admins also manage tables and views', () => {
    expect(spaceAccess('reader')).toMatchObject({ canWriteRecords: false, canManageTables: false, canManageViews: false });
    expect(spaceAccess('editor')).toMatchObject({ canWriteRecords: true, canManageTables: false, canManageViews: false });
    expect(spaceAccess('admin')).toMatchObject({ canWriteRecords: true, canManageTables: true, canManageViews: true });
    expect(spaceAccess(null)).toMatchObject({ canWriteRecords: false, canManageTables: false, canManageViews: false });
  });

  it('honours a field’s editable_by: members (editors and admins), admins, none (nobody)', () => {
    const byMembers = makeField('name', 'text');
    const byAdmins = makeField('score', 'number', { editable_by: 'admins' });
    const byNobody = makeField('code', 'text', { editable_by: 'none' });
    const editable = (role: Parameters<typeof spaceAccess>[0]) => [byMembers, byAdmins, byNobody].map((field) => spaceAccess(role).canEditField(field));
    expect(editable('admin')).toEqual([true, true, false]);
    expect(editable('editor')).toEqual([true, false, false]);
    expect(editable('reader')).toEqual([false, false, false]);
    expect(editable(null)).toEqual([false, false, false]);
  });

  it('answers the same object for a role each time (a stable value between renders)', () => {
    expect(spaceAccess('editor')).toBe(spaceAccess('editor'));
  });
});
