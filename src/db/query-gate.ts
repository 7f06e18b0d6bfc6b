import { QueryQueueTimeoutError } from '../shared/errors.js';

/** Whom a record query runs for: its account, and the key (or the signed-in user) within it. */
export interface QueryCaller {
  readonly account: string;
  readonly key: string;
}

interface Waiting {
  caller: QueryCaller;
  start: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Admits record queries, whose cost the caller decides, to a few slots shared fairly between
 * accounts, and between the keys of each account:
 * - one account runs at most `share` queries at once, and there are `slots` (more than `share`),
 *   so however many heavy queries one account sends, another account's query finds a slot free;
 * - a freed slot goes to the waiting account that runs the fewest queries (in turns when they run
 *   as many), within it to the key that runs the fewest, likewise, then to that key's oldest query:
 *   a caller's own queue never holds anyone else back, however long it is;
 * - a query waits for its slot at most `queueTimeoutMs`, then gives up with
 *   `QueryQueueTimeoutError`. The time budget of a query starts when it gets its slot (the
 *   readers' business): waiting never eats into it.
 * The cheap calls (gets, writes, management) never pass through here. The same gate admits
 * thumbnails to be made (modules/files/thumbnails.service.ts), with a timeout error of their own.
 */
/** Every gate of this process (one per open database), weakly held so a closed database's goes: for `/metrics`. */
const liveGates = new Set<WeakRef<QueryGate>>();

/** Record-query slots of this process in use and queries waiting for one, over every gate. */
export function queryGateOccupancy(): { busy: number; queued: number } {
  const total = { busy: 0, queued: 0 };
  for (const reference of liveGates) {
    const gate = reference.deref();
    if (!gate) liveGates.delete(reference);
    else {
      total.busy += gate.busy;
      total.queued += gate.queued;
    }
  }
  return total;
}

export class QueryGate {
  private running = 0;
  /** Per account and per key (`account/key`): queries running and waiting, and when the last one started. */
  private readonly shares = new Map<string, Share>();
  private readonly waiting: Waiting[] = [];
  private starts = 0;

  /**
   * `options.timeoutError` is what a wait past the bound fails with (record queries': the 503
   * `query_queue_timeout`); `options.metered: false` keeps the gate out of the record-query
   * occupancy of `/metrics` (a gate admitting other work, such as thumbnails).
   */
  constructor(
    readonly share: number,
    readonly slots: number,
    private readonly queueTimeoutMs: number,
    private readonly options: { timeoutError?: (queueTimeoutMs: number) => Error; metered?: boolean } = {},
  ) {
    if (options.metered !== false) liveGates.add(new WeakRef(this));
  }

  get busy(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` in a slot; the slot is held until the promise `task` returns settles. */
  async run<T>(caller: QueryCaller, task: () => Promise<T>): Promise<T> {
    // Any slot free now is one no waiting query may take (its account is at its share).
    if (this.running < this.slots && this.shareOf(caller.account).running < this.share) this.start(caller);
    else await this.wait(caller);
    try {
      return await task();
    } finally {
      this.release(caller);
    }
  }

  private shareOf(name: string): Share {
    let share = this.shares.get(name);
    if (!share) this.shares.set(name, (share = { running: 0, waiting: 0, lastStart: -1 }));
    return share;
  }

  private change(caller: QueryCaller, update: (share: Share) => void): void {
    for (const name of [caller.account, keyOf(caller)]) {
      const share = this.shareOf(name);
      update(share);
      if (share.running === 0 && share.waiting === 0) this.shares.delete(name);
    }
  }

  private start(caller: QueryCaller): void {
    this.running += 1;
    this.starts += 1;
    this.change(caller, (share) => {
      share.running += 1;
      share.lastStart = this.starts;
    });
  }

  private wait(caller: QueryCaller): Promise<void> {
    this.change(caller, (share) => (share.waiting += 1));
    return new Promise((resolve, reject) => {
      const entry: Waiting = {
        caller,
        start: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          this.change(caller, (share) => (share.waiting -= 1));
          reject(this.options.timeoutError?.(this.queueTimeoutMs) ?? new QueryQueueTimeoutError(this.queueTimeoutMs));
        }, this.queueTimeoutMs),
      };
      this.waiting.push(entry);
    });
  }

  private release(caller: QueryCaller): void {
    this.running -= 1;
    this.change(caller, (share) => (share.running -= 1));
    for (let next = this.nextToStart(); next >= 0 && this.running < this.slots; next = this.nextToStart()) {
      const [entry] = this.waiting.splice(next, 1);
      clearTimeout(entry.timer);
      this.change(entry.caller, (share) => (share.waiting -= 1));
      this.start(entry.caller);
      entry.start();
    }
  }

  /**
   * The waiting query to start next, -1 if none may: of the account running the fewest (on a
   * tie, the one that started a query least recently: turns go round), then likewise of its
   * keys, then its oldest.
   */
  private nextToStart(): number {
    let best = -1;
    let bestRank: number[] = [];
    for (const [index, { caller }] of this.waiting.entries()) {
      const account = this.shares.get(caller.account)!;
      if (account.running >= this.share) continue;
      const key = this.shares.get(keyOf(caller))!;
      const rank = [account.running, account.lastStart, key.running, key.lastStart];
      if (best < 0 || isBefore(rank, bestRank)) [best, bestRank] = [index, rank];
    }
    return best;
  }
}

interface Share {
  running: number;
  waiting: number;
  lastStart: number;
}

/** Key ids are unique only within their kind and account: counted under both. */
function keyOf(caller: QueryCaller): string {
  return `${caller.account}/${caller.key}`;
}

function isBefore(rank: number[], other: number[]): boolean {
  for (const [index, value] of rank.entries()) if (value !== other[index]) return value < other[index];
  return false;
}
