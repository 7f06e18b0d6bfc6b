import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { createAccount, createKey, type World } from '../factories.js';

/**
 * `keys.authenticateCachedKey` (records routes) remembers a secret's identity per cached key
 * row and client address. These cases would catch a remembered identity that outlives a
 * revocation or skips the address allow-list.
 */
describe('authenticateCachedKey', () => {
  const ctx = useTestApp();
  let world: World;

  beforeAll(async () => {
    world = await createAccount(ctx);
  });

  const keys = () => ctx.container.services.keys;

  it('answers undefined for a key that is not cached yet, then the identity once a database read cached it', async () => {
    const key = await createKey(ctx, { accountId: world.accountId });
    expect(keys().authenticateCachedKey(key.key, '127.0.0.1')).toBeUndefined();
    const read = await keys().authenticateKey(key.key, '127.0.0.1');
    const cached = keys().authenticateCachedKey(key.key, '127.0.0.1');
    expect(cached).toMatchObject({ accountId: world.accountId, keyId: key.id, via: 'account_key', readOnly: false });
    expect(cached?.metadataVersion).toBe(read.metadataVersion);
    expect(keys().authenticateCachedKey(key.key, '127.0.0.1')).toBe(cached);
  });

  it('checks the allow-list for every new address, also after an allowed address was remembered', async () => {
    const key = await createKey(ctx, { accountId: world.accountId, ipAllow: ['10.1.0.0/16'] });
    await expect(keys().authenticateKey(key.key, '192.168.1.1')).rejects.toMatchObject({ status: 401, code: 'ip_not_allowed' });
    expect(keys().authenticateCachedKey(key.key, '10.1.2.3')?.keyId).toBe(key.id);
    expect(() => keys().authenticateCachedKey(key.key, '192.168.1.1')).toThrow('API key not allowed from this address');
    expect(() => keys().authenticateCachedKey(key.key, '10.2.0.1')).toThrow('API key not allowed from this address');
    expect(keys().authenticateCachedKey(key.key, '10.1.9.9')?.keyId).toBe(key.id);
  });

  it('forgets a revoked key: the next read misses the cache and the database answers 401', async () => {
    const key = await createKey(ctx, { accountId: world.accountId });
    await keys().authenticateKey(key.key, '127.0.0.1');
    expect(keys().authenticateCachedKey(key.key, '127.0.0.1')?.keyId).toBe(key.id);
    await keys().revokeKey(key.id);
    // The revocation bumps the metadata version; the cache learns it from the next statement that reads it.
    await keys().authenticateKey(world.accountKey, '127.0.0.1');
    expect(keys().authenticateCachedKey(key.key, '127.0.0.1')).toBeUndefined();
    await expect(keys().authenticateKey(key.key, '127.0.0.1')).rejects.toMatchObject({ status: 401 });
  });

  it('never answers for a secret that matches no key', () => {
    expect(keys().authenticateCachedKey('tbk_not-a-key', '127.0.0.1')).toBeUndefined();
  });
});
