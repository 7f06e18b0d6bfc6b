import type SqliteDatabase from 'better-sqlite3';

interface QueuedRead {
  statement: SqliteDatabase.Statement;
  parameters: readonly unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (error: unknown) => void;
}

/**
 * The direct reader's statements, run together once a turn of the event loop: the reads asked
 * during one turn (the requests that arrived together) run at its end in one read transaction.
 * A SQLite read transaction costs more than a hot statement itself (a lock and an unlock of the
 * WAL's shared memory, system calls of some microseconds each, against about two for an indexed
 * row), so ten gets arriving together pay for one. Every read still begins after it was asked:
 * it sees every write acknowledged before its request.
 */
export function createTurnReads(connection: SqliteDatabase.Database, statementOf: (source: string) => SqliteDatabase.Statement) {
  const begin = connection.prepare('begin');
  const commit = connection.prepare('commit');
  let queue: QueuedRead[] = [];

  // Runs on its own turn, where a throw would end the process: a failure of `begin` fails the
  // turn's reads, and one of `commit` (a read transaction has nothing to lose) is left to the
  // next turn's `begin`, which would fail those reads the same way rather than hang them.
  function runAll(): void {
    const reads = queue;
    queue = [];
    const together = reads.length > 1;
    try {
      if (together) begin.run();
    } catch (error) {
      for (const read of reads) read.reject(error);
      return;
    }
    for (const read of reads) {
      try {
        read.resolve(read.statement.all(read.parameters));
      } catch (error) {
        read.reject(error);
      }
    }
    if (together && connection.inTransaction) {
      try {
        commit.run();
      } catch {
        // Nothing written to keep or lose; the connection stays in its transaction only until the next begin fails.
      }
    }
  }

  return (source: string, parameters: readonly unknown[]): Promise<unknown[]> =>
    new Promise((resolve, reject) => {
      let statement: SqliteDatabase.Statement;
      try {
        statement = statementOf(source);
      } catch (error) {
        reject(error);
        return;
      }
      if (queue.push({ statement, parameters, resolve, reject }) === 1) setImmediate(runAll);
    });
}
