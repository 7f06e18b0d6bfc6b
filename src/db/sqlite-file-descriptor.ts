import fs from 'node:fs';

/** A descriptor of a database file, kept open while a holder needs it. */
export interface HeldDescriptor {
  readonly descriptor: number;
  /** Once every holder of this file in the process has released it, the descriptor is closed. */
  release(): void;
}

const held = new Map<string, { descriptor: number; holders: number }>();

/**
 * A descriptor of the SQLite file for what Tabula does to it outside SQLite (the syncs after
 * background checkpoints: sqlite-read-workers.ts), opened once per file in the process and
 * closed only when the last Database that holds it has closed its connections.
 *
 * POSIX drops every lock a process holds on a file as soon as any descriptor of that file is
 * closed in it, whoever opened it. A sync that opened and closed a descriptor of its own took
 * the server's shared lock on the file away from all its connections (SQLite does not notice):
 * another process's connection to the database, closing, then took itself for the last one,
 * copied the WAL back and deleted it with its shared-memory index while the server still wrote
 * to them, and the database came out corrupt. SQLite 3.54 (better-sqlite3's, so `tabula`
 * commands) looks at the index's locks before it deletes and was not fooled; the `sqlite3` shell
 * of Debian 12 (3.40) and other tools of that age were (docs/decisions.md, "No descriptor of the
 * database file is ever closed while its connections are open").
 */
export function holdFileDescriptor(file: string): HeldDescriptor {
  // One entry per file however its path is spelled: a second descriptor closed would drop the locks all the same.
  const key = fs.realpathSync(file);
  let entry = held.get(key);
  if (!entry) {
    entry = { descriptor: fs.openSync(key, 'r'), holders: 0 };
    held.set(key, entry);
  }
  entry.holders += 1;
  const holding = entry;
  let released = false;
  return {
    descriptor: holding.descriptor,
    release() {
      if (released) return;
      released = true;
      holding.holders -= 1;
      if (holding.holders > 0) return;
      held.delete(key);
      fs.closeSync(holding.descriptor);
    },
  };
}
