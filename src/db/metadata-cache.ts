import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { prepareQuery } from './prepared-query.js';

/**
 * The metadata version (migration 0005) as a column: a statement that carries it tells which
 * version of keys, memberships and schemas its own snapshot saw.
 */
export const metadataVersionColumn = sql<number | string>`(select version from metadata_version where id = 1)`;

const selectMetadataVersion = prepareQuery((db: Kysely<any>) => db.selectNoFrom(metadataVersionColumn.as('version')));

export async function readMetadataVersion(db: Kysely<any>): Promise<number> {
  const [row] = await selectMetadataVersion(db);
  return Number(row.version);
}

/** The version a statement's rows carry as `metadata_version`, or when it found none, a fresh read. */
export async function versionOfRows(db: Kysely<any>, rows: readonly { metadata_version: number | string }[]): Promise<number> {
  return rows.length > 0 ? Number(rows[0].metadata_version) : readMetadataVersion(db);
}

/** Thrown when a statement saw a newer metadata version than what the request relied on. */
export class StaleMetadataError extends Error {
  constructor() {
    super('Cached metadata is stale');
  }
}

/**
 * Per-process cache of metadata (API keys, tables with roles, members, users, title columns).
 * Each entry remembers the version it was read at and is served only while no newer version
 * has been seen: once any statement reports a newer one, every older entry is dropped. A
 * request that used cached entries confirms them against the version its own main statement
 * read (createMetadataReads), so several processes sharing a database stay exact.
 */
export function createMetadataCache(maxEntries = 20_000) {
  let latest = 0;
  const entries = new LRUCache<string, { version: number; value: object }>({ max: maxEntries });
  const observe = (version: number) => {
    if (version > latest) {
      latest = version;
      entries.clear();
    }
  };
  return {
    observe,
    get(key: string): { version: number; value: object } | undefined {
      const entry = entries.get(key);
      return entry && entry.version === latest ? entry : undefined;
    },
    set(key: string, version: number, value: object): void {
      observe(version);
      if (version === latest) entries.set(key, { version, value });
    },
  };
}

export type MetadataCache = ReturnType<typeof createMetadataCache>;

/**
 * The metadata reads of one attempt at a request. `cached`: entries come from the cache when
 * present, and `confirm` checks the versions of everything used against the version the
 * request's own statement saw (throwing StaleMetadataError so the caller retries uncached).
 * Uncached: every read goes to the database (and refreshes the cache); confirm only records.
 */
export function createMetadataReads(cache: MetadataCache, cached: boolean): MetadataReads {
  return new MetadataReads(cache, cached);
}

/** A class, not closures: one is made for every record call. */
export class MetadataReads {
  private readonly used = new Set<number>();
  private readonly loaded = new Map<string, Promise<{ version: number; value: object }>>();
  private isConfirmed = false;

  constructor(
    private readonly cache: MetadataCache,
    private readonly cached: boolean,
  ) {}

  get confirmed(): boolean {
    return this.isConfirmed;
  }

  /** Counts a version the request relies on that was read elsewhere (the caller's identity). */
  use(version: number | undefined): void {
    if (version !== undefined) this.used.add(version);
  }

  /**
   * The cached value of `key`, synchronously, when this attempt may use the cache and has it:
   * the hot path of a records call then needs no promise. Counted as used, like `load`.
   */
  peek<T extends object>(key: string): T | undefined {
    if (!this.cached) return undefined;
    const hit = this.cache.get(key);
    if (!hit) return undefined;
    this.used.add(hit.version);
    return hit.value as T;
  }

  /** One read per key per attempt, whatever the mode. */
  async load<T extends object>(key: string, read: () => Promise<{ version: number; value: T }>): Promise<T> {
    let pending = this.loaded.get(key);
    if (!pending) {
      const hit = this.cached ? this.cache.get(key) : undefined;
      pending = hit ? Promise.resolve(hit) : read().then((entry) => (this.cache.set(key, entry.version, entry.value), entry));
      this.loaded.set(key, pending);
    }
    const entry = await pending;
    this.used.add(entry.version);
    return entry.value as T;
  }

  /**
   * What a write may check in its own statement instead of confirming before it (PostgreSQL,
   * record-statements.ts): the version every cached entry used was read at, or null when there
   * is nothing to check (this attempt reads afresh, or is confirmed already). The write writes
   * nothing unless the version is still that one, and then confirms the version its statement
   * saw. Entries read at different versions cannot all be current: StaleMetadataError now.
   */
  versionToCheck(): number | null {
    if (!this.cached || this.isConfirmed) return null;
    const [version, ...others] = this.used;
    if (others.length > 0) throw new StaleMetadataError();
    return version ?? null;
  }

  /** Once confirmed, later statements of the request (a write's read-back) check nothing more. */
  confirm(version: number | string): void {
    const seen = Number(version);
    this.cache.observe(seen);
    if (this.isConfirmed) return;
    if (this.cached) for (const used of this.used) if (used !== seen) throw new StaleMetadataError();
    this.isConfirmed = true;
  }
}
