import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
const scryptOptions = { N: 16384, r: 8, p: 1 };

/** `scrypt$<salt>$<hash>`, both base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, 32, scryptOptions);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, scryptOptions);
  return crypto.timingSafeEqual(actual, expected);
}

/** A hash to verify against when the email is unknown, so both paths cost one scrypt. */
export const decoyPasswordHash = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function generatePassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}

/** API keys: 32 random bytes; high entropy makes a plain SHA-256 a safe, indexable hash. */
export function generateApiKeySecret(): string {
  return `tbk_${crypto.randomBytes(32).toString('base64url')}`;
}

export function generateSessionToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** SHA-256 in hex; the one-shot `crypto.hash` skips building a Hash object for each token. */
export function hashToken(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}
