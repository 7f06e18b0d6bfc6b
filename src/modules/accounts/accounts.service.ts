import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { ErrorCode, NotFoundError, ValidationError } from '../../shared/errors.js';
import type { KeysService } from '../keys/keys.service.js';
import type { UserInput, UsersService } from '../users/users.service.js';
import * as accounts from './accounts.repository.js';

export interface CreatedAccount {
  account_id: number;
  user_id: number;
  email: string;
  /** The given password, or the generated one. */
  password: string;
  api_key: string;
}

export function createAccountsService(deps: { database: Database; clock: Clock; users: UsersService; keys: KeysService }) {
  const { db } = deps.database;

  return {
    /** An account, its owner and one unrestricted account key, all or nothing. */
    async createAccount(input: UserInput & { accountName?: string }): Promise<CreatedAccount> {
      return db.transaction().execute(async (trx) => {
        const accountId = await accounts.insertAccount(trx, input.accountName ?? input.name ?? input.email, formatDateTime(deps.clock.now()));
        const owner = await deps.users.createUser(accountId, input, trx);
        await accounts.setAccountOwner(trx, accountId, owner.id);
        const key = await deps.keys.createKey({ name: 'Account key', accountId }, trx);
        return { account_id: accountId, user_id: owner.id, email: owner.email, password: owner.password ?? input.password!, api_key: key.key };
      });
    },

    /** For `tabula accounts list`: id, name, owner and number of users, in id order. */
    async listAccounts() {
      const rows = await accounts.listAccounts(db);
      return rows.map((row) => ({ id: row.id, name: row.name, owner_user_id: row.owner_user_id, owner_email: row.owner_email ?? null, users: Number(row.users ?? 0), created_at: row.created_at }));
    },

    async listAccountIds(): Promise<number[]> {
      return accounts.listAccountIds(db);
    },

    /** `--account-id` is implied with a single account and required with several. */
    async resolveAccountId(requested: number | undefined): Promise<number> {
      const ids = await accounts.listAccountIds(db);
      if (requested !== undefined) {
        if (!ids.includes(requested)) throw new NotFoundError(`Account not found: ${requested}`, ErrorCode.accountNotFound);
        return requested;
      }
      if (ids.length === 0) throw new ValidationError('No account yet: run `tabula init --email you@example.com` first');
      if (ids.length > 1) throw new ValidationError(`Several accounts exist (${ids.join(', ')}): pass --account-id`);
      return ids[0];
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
