import { QueryTimeoutError } from '../shared/errors.js';

interface Waiting {
  caller: string;
  start: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Admits record queries, whose cost the caller decides, to a fixed number of slots: at most
 * `slots` run at once. A caller alone may use them all; once others wait, a free slot goes
 * first to a caller below its share (`perCaller`), so one caller's heavy queries never keep
 * the others out for longer than one of its queries lasts. A query that finds no free slot
 * waits its turn; past its deadline it gives up with `QueryTimeoutError`. The cheap calls
 * (gets, writes, management) never pass through here.
 */
export class QueryGate {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  private readonly waiting: Waiting[] = [];

  constructor(
    readonly slots: number,
    readonly perCaller: number,
    private readonly budgetMs: number,
  ) {}

  /** Runs `task` in a slot; the slot is held until the promise `task` returns settles. */
  async run<T>(caller: string, deadline: number, task: () => Promise<T>): Promise<T> {
    if (this.waiting.length > 0 || !this.admit(caller, true)) await this.wait(caller, deadline);
    try {
      return await task();
    } finally {
      this.release(caller);
    }
  }

  /** Takes a slot for `caller` if one is free and, unless `beyondShare`, the caller is below its share. */
  private admit(caller: string, beyondShare: boolean): boolean {
    const mine = this.runningBy.get(caller) ?? 0;
    if (this.running >= this.slots || (!beyondShare && mine >= this.perCaller)) return false;
    this.running += 1;
    this.runningBy.set(caller, mine + 1);
    return true;
  }

  private wait(caller: string, deadline: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const entry: Waiting = {
        caller,
        start: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(new QueryTimeoutError(this.budgetMs));
        }, Math.max(0, deadline - Date.now())),
      };
      this.waiting.push(entry);
    });
  }

  private release(caller: string): void {
    this.running -= 1;
    const mine = this.runningBy.get(caller)! - 1;
    if (mine === 0) this.runningBy.delete(caller);
    else this.runningBy.set(caller, mine);
    let next = this.waiting.findIndex((entry) => this.admit(entry.caller, false));
    if (next < 0 && this.waiting.length > 0 && this.admit(this.waiting[0].caller, true)) next = 0;
    if (next < 0) return;
    const [entry] = this.waiting.splice(next, 1);
    clearTimeout(entry.timer);
    entry.start();
  }
}
