import type { Role } from '../src/modules/auth/actor.js';
import type { TestContext } from './build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, login, type CallOptions, type Response, type World } from './factories.js';

/**
 * One account with every kind of caller the access rules distinguish, plus a second account,
 * built once per test file through the services and the HTTP API.
 *
 * Account A: owner + unrestricted account key; spaces S1 and S2; table T1 (with field `notes`)
 * in S1; users with roles admin, editor, reader in S1 (and none in S2), a non-member; keys of
 * every flavour. Account B: owner + key, its own space and table.
 */

export interface ErrorExpectation {
  status: number;
  code: string;
  message: string;
}

export type ActingUser = 'owner' | 'admin' | 'editor' | 'reader' | 'nonMember' | 'bOwner';

/** What an authenticated caller is, in the terms of CONTRACT §2–§3. */
export interface Identity {
  account: 'A' | 'B';
  /** The acting user: the key's or session's user, the owner for an account key. */
  user: ActingUser;
  via: 'account_key' | 'personal_key' | 'session';
  readOnly: boolean;
  /** An account key restricted to listed spaces. */
  restricted: boolean;
  /** The caller's role in A's S1 and S2; null when the space is invisible to it. */
  roleInS1: Role | null;
  roleInS2: Role | null;
}

/** Known before any database exists, so tests can be named after the expected outcome. */
export interface CallerProfile {
  name: string;
  /** Null when authentication fails; then `authError` says how. */
  identity: Identity | null;
  authError?: ErrorExpectation;
}

export interface Caller extends CallerProfile {
  /** How the request authenticates: a bearer key, a raw header, a cookie, a client address. */
  auth: Pick<CallOptions, 'key' | 'headers' | 'cookie' | 'remoteAddress'>;
  /** Id of the acting user; null when authentication fails. */
  userId: number | null;
}

export interface AccessWorld {
  a: World;
  b: World;
  s1: { id: number };
  s2: { id: number };
  t1: { id: number; fieldSlug: string };
  bSpace: { id: number };
  bTable: { id: number };
  users: Record<'admin' | 'editor' | 'reader' | 'nonMember', { id: number; email: string; name: string; password: string }>;
  keys: {
    readOnly: string;
    restrictedToS2: string;
    revoked: string;
    rotatedOld: string;
    rotatedNew: string;
    ipAllowed: string;
    ownerPersonal: string;
    adminPersonal: string;
    editorPersonal: string;
    readerPersonal: string;
    nonMemberPersonal: string;
    bOwnerPersonal: string;
  };
  callers: Caller[];
  caller(name: string): Caller;
}

export const missingKey: ErrorExpectation = { status: 401, code: 'missing_api_key', message: 'Missing API key' };
export const invalidKey: ErrorExpectation = { status: 401, code: 'invalid_api_key', message: 'Invalid API key' };
export const ipNotAllowed: ErrorExpectation = { status: 401, code: 'ip_not_allowed', message: 'API key not allowed from this address' };
export const invalidSession: ErrorExpectation = { status: 401, code: 'invalid_session', message: 'Session expired or invalid' };

/** A well-formed secret that was never issued. */
export const unknownKeySecret = 'tbk_DoesNotExistDoesNotExistDoesNotExist0000000';

/** A space or table id no account has. */
export const missingId = 2_000_000_000;

const accountKey: Identity = { account: 'A', user: 'owner', via: 'account_key', readOnly: false, restricted: false, roleInS1: 'admin', roleInS2: 'admin' };
const personal = (user: ActingUser, roleInS1: Role | null, roleInS2: Role | null, via: Identity['via'] = 'personal_key'): Identity => ({
  account: 'A',
  user,
  via,
  readOnly: false,
  restricted: false,
  roleInS1,
  roleInS2,
});
const fails = (name: string, authError: ErrorExpectation): CallerProfile => ({ name, identity: null, authError });

/** Every caller of the access matrix; `buildAccessWorld` gives each its credentials. */
export const callerProfiles: readonly CallerProfile[] = [
  fails('no Authorization header', missingKey),
  fails('Basic Authorization header', invalidKey),
  fails('"Bearer" without a key', invalidKey),
  fails('unknown key', invalidKey),
  fails('revoked key', invalidKey),
  fails("rotated key's old secret", invalidKey),
  fails('IP allow-listed key from outside the list', ipNotAllowed),
  fails('invalid session cookie', invalidSession),
  { name: 'unrestricted account key', identity: accountKey },
  { name: "rotated key's new secret", identity: accountKey },
  { name: 'IP allow-listed key from inside the list', identity: accountKey },
  { name: 'read-only account key', identity: { ...accountKey, readOnly: true } },
  { name: 'account key restricted to S2', identity: { ...accountKey, restricted: true, roleInS1: null } },
  { name: "owner's personal key", identity: personal('owner', 'admin', 'admin') },
  { name: "space admin's personal key", identity: personal('admin', 'admin', null) },
  { name: "editor's personal key", identity: personal('editor', 'editor', null) },
  { name: "reader's personal key", identity: personal('reader', 'reader', null) },
  { name: "non-member's personal key", identity: personal('nonMember', null, null) },
  { name: "owner's session", identity: personal('owner', 'admin', 'admin', 'session') },
  { name: "space admin's session", identity: personal('admin', 'admin', null, 'session') },
  { name: "reader's session", identity: personal('reader', 'reader', null, 'session') },
  { name: "another account's key", identity: { ...accountKey, account: 'B', user: 'bOwner', roleInS1: null, roleInS2: null } },
  { name: "another account owner's personal key", identity: { ...personal('bOwner', null, null), account: 'B' } },
];

export async function buildAccessWorld(ctx: TestContext): Promise<AccessWorld> {
  const a = await createAccount(ctx);
  const b = await createAccount(ctx);
  const s1 = await createSpace(ctx, a, 'S1');
  const s2 = await createSpace(ctx, a, 'S2');
  const t1 = await createTable(ctx, a, s1.id, { name: 'T1', fields: [{ name: 'Name', type: 'text' }, { name: 'Notes', type: 'text' }] });
  const bSpace = await createSpace(ctx, b, 'B space');
  const bTable = await createTable(ctx, b, bSpace.id, { name: 'B table', fields: [{ name: 'Name', type: 'text' }] });

  const makeUser = async (name: string) => ({ ...(await createUser(ctx, a, name)), password: 'user-password' });
  const users = {
    admin: await makeUser('Ada Admin'),
    editor: await makeUser('Eddie Editor'),
    reader: await makeUser('Rita Reader'),
    nonMember: await makeUser('Nora Nonmember'),
  };
  await addMember(ctx, a, s1.id, users.admin.id, 'admin');
  await addMember(ctx, a, s1.id, users.editor.id, 'editor');
  await addMember(ctx, a, s1.id, users.reader.id, 'reader');

  const keysService = ctx.container.services.keys;
  const revoked = await createKey(ctx, { accountId: a.accountId, name: 'revoked' });
  await keysService.revokeKey(revoked.id);
  const rotated = await createKey(ctx, { accountId: a.accountId, name: 'rotated' });
  const rotatedNew = await keysService.rotateKey(rotated.id);
  const keys = {
    readOnly: (await createKey(ctx, { accountId: a.accountId, readOnly: true, name: 'read-only' })).key,
    restrictedToS2: (await createKey(ctx, { accountId: a.accountId, spaceIds: [s2.id], name: 'S2 only' })).key,
    revoked: revoked.key,
    rotatedOld: rotated.key,
    rotatedNew: rotatedNew.key,
    ipAllowed: (await createKey(ctx, { accountId: a.accountId, ipAllow: ['10.0.0.0/8'], name: 'intranet' })).key,
    ownerPersonal: (await createKey(ctx, { userId: a.ownerId })).key,
    adminPersonal: (await createKey(ctx, { userId: users.admin.id })).key,
    editorPersonal: (await createKey(ctx, { userId: users.editor.id })).key,
    readerPersonal: (await createKey(ctx, { userId: users.reader.id })).key,
    nonMemberPersonal: (await createKey(ctx, { userId: users.nonMember.id })).key,
    bOwnerPersonal: (await createKey(ctx, { userId: b.ownerId })).key,
  };
  const sessions = {
    owner: await login(ctx, a.ownerEmail, a.ownerPassword),
    admin: await login(ctx, users.admin.email, users.admin.password),
    reader: await login(ctx, users.reader.email, users.reader.password),
  };

  const userIds: Record<ActingUser, number> = {
    owner: a.ownerId,
    admin: users.admin.id,
    editor: users.editor.id,
    reader: users.reader.id,
    nonMember: users.nonMember.id,
    bOwner: b.ownerId,
  };
  const auths: Record<string, Caller['auth']> = {
    'no Authorization header': {},
    'Basic Authorization header': { headers: { authorization: 'Basic xyz' } },
    '"Bearer" without a key': { headers: { authorization: 'Bearer' } },
    'unknown key': { key: unknownKeySecret },
    'revoked key': { key: keys.revoked },
    "rotated key's old secret": { key: keys.rotatedOld },
    'IP allow-listed key from outside the list': { key: keys.ipAllowed },
    'invalid session cookie': { cookie: 'tabula_session=not-a-session' },
    'unrestricted account key': { key: a.accountKey },
    "rotated key's new secret": { key: keys.rotatedNew },
    'IP allow-listed key from inside the list': { key: keys.ipAllowed, remoteAddress: '10.20.30.40' },
    'read-only account key': { key: keys.readOnly },
    'account key restricted to S2': { key: keys.restrictedToS2 },
    "owner's personal key": { key: keys.ownerPersonal },
    "space admin's personal key": { key: keys.adminPersonal },
    "editor's personal key": { key: keys.editorPersonal },
    "reader's personal key": { key: keys.readerPersonal },
    "non-member's personal key": { key: keys.nonMemberPersonal },
    "owner's session": { cookie: sessions.owner },
    "space admin's session": { cookie: sessions.admin },
    "reader's session": { cookie: sessions.reader },
    "another account's key": { key: b.accountKey },
    "another account owner's personal key": { key: keys.bOwnerPersonal },
  };
  const callers: Caller[] = callerProfiles.map((profile) => {
    const auth = auths[profile.name];
    if (!auth) throw new Error(`No way to authenticate as ${profile.name}`);
    return { ...profile, auth, userId: profile.identity ? userIds[profile.identity.user] : null };
  });

  return {
    a,
    b,
    s1,
    s2,
    t1: { id: t1.id, fieldSlug: 'notes' },
    bSpace,
    bTable,
    users,
    keys,
    callers,
    caller(name) {
      const found = callers.find((c) => c.name === name);
      if (!found) throw new Error(`No caller named ${name}`);
      return found;
    },
  };
}

/** One request as `caller`. POSTs always send a JSON body (`{}` when none) so sessions pass the JSON-only rule. */
export function callAs(ctx: TestContext, caller: Caller, method: 'GET' | 'POST', url: string, body?: unknown): Promise<Response> {
  return call(ctx, method, url, { ...caller.auth, body: method === 'POST' ? (body ?? {}) : body });
}
