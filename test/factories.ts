import type { TestContext } from './build-test-app.js';

export interface Response {
  status: number;
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Raw payload, sent as is (malformed JSON, junk). */
  payload?: string | Buffer;
  headers?: Record<string, string>;
  cookie?: string;
  remoteAddress?: string;
}

/** One HTTP call through `app.inject`: the real routing, hooks, validation and serialisation. */
export async function call(ctx: TestContext, method: 'GET' | 'POST', url: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  let payload = options.payload;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await ctx.app.inject({ method, url, headers, payload, remoteAddress: options.remoteAddress });
  let body: unknown = response.body;
  try {
    body = response.json();
  } catch {
    // not JSON: keep the text
  }
  return { status: response.statusCode, body, headers: response.headers };
}

export interface World {
  accountId: number;
  ownerId: number;
  ownerEmail: string;
  ownerPassword: string;
  /** Unrestricted account key. */
  accountKey: string;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${(counter += 1)}`;

/** An account with its owner and unrestricted account key, made through the service layer. */
export async function createAccount(ctx: TestContext, email = `${unique('owner')}@example.com`): Promise<World> {
  const created = await ctx.container.services.accounts.createAccount({ email, name: 'Owner', password: 'owner-password' });
  return { accountId: created.account_id, ownerId: created.user_id, ownerEmail: created.email, ownerPassword: 'owner-password', accountKey: created.api_key };
}

export async function createUser(ctx: TestContext, world: World, name = 'Member') {
  const email = `${unique('user')}@example.com`;
  return ctx.container.services.users.createUser(world.accountId, { email, name, password: 'user-password' });
}

export async function createKey(ctx: TestContext, options: { accountId?: number; userId?: number; readOnly?: boolean; spaceIds?: number[]; ipAllow?: string[]; name?: string; expiresAt?: Date }) {
  return ctx.container.services.keys.createKey({ name: options.name ?? unique('key'), ...options });
}

export async function createSpace(ctx: TestContext, world: World, name = 'Space') {
  const response = await call(ctx, 'POST', '/api/spaces/create', { key: world.accountKey, body: { name } });
  if (response.status !== 200) throw new Error(`createSpace failed: ${JSON.stringify(response.body)}`);
  return response.body as { id: number; name: string };
}

export async function addMember(ctx: TestContext, world: World, spaceId: number, userId: number, role: 'admin' | 'editor' | 'reader') {
  const response = await call(ctx, 'POST', `/api/space/${spaceId}/members/add`, { key: world.accountKey, body: { user_id: userId, role } });
  if (response.status !== 200) throw new Error(`addMember failed: ${JSON.stringify(response.body)}`);
}

export async function createTable(ctx: TestContext, world: World, spaceId: number, body: { name: string; fields?: unknown[]; title_field?: string }) {
  const response = await call(ctx, 'POST', `/api/space/${spaceId}/tables/create`, { key: world.accountKey, body });
  if (response.status !== 200) throw new Error(`createTable failed: ${JSON.stringify(response.body)}`);
  return response.body as { id: number; fields: Array<{ id: string }> };
}

export async function login(ctx: TestContext, email: string, password: string): Promise<string> {
  const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const cookie = response.cookies.find((c) => c.name === 'tabula_session');
  if (!cookie) throw new Error(`login failed: ${response.body}`);
  return `tabula_session=${cookie.value}`;
}

/** One field of every type (single and multiple where both exist); lookups point at `targetTableId`. */
export function everyFieldType(targetTableId: number) {
  return [
    { id: 'name', name: 'Name', type: 'text' },
    { id: 'notes', name: 'Notes', type: 'longtext' },
    { id: 'mail', name: 'Mail', type: 'email' },
    { id: 'site', name: 'Site', type: 'url' },
    { id: 'amount', name: 'Amount', type: 'number' },
    { id: 'done', name: 'Done', type: 'checkbox' },
    { id: 'status', name: 'Status', type: 'select', options: [{ value: 'Open' }, { value: 'Closed' }, { value: 'Pending' }] },
    { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'red' }, { value: 'blue' }, { value: 'green' }] },
    { id: 'owner', name: 'Owner', type: 'user' },
    { id: 'team', name: 'Team', type: 'user', multiple: true },
    { id: 'ref', name: 'Ref', type: 'lookup', table_id: targetTableId },
    { id: 'refs', name: 'Refs', type: 'lookup', multiple: true, table_id: targetTableId },
    { id: 'day', name: 'Day', type: 'date' },
    { id: 'moment', name: 'Moment', type: 'datetime' },
    { id: 'clock', name: 'Clock', type: 'time' },
    { id: 'doc', name: 'Doc', type: 'file' },
  ];
}
