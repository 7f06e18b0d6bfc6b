import fs from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { writeWithBackpressure } from './records-export.command.js';

/** Rejected rows listed in the summary; all of them go to the rejects file. */
const listedRejects = 20;

/**
 * What `tabula import` did, as its summary says it (docs/api.md, "tabula import"): always
 * printed on stdout, whether the import was written or not. The first line is
 * `imported N, updated M, rejected K`, then `; nothing written` when it was not, then each
 * rejected row as `line L: reason`.
 */
export class ImportReport {
  created = 0;
  updated = 0;
  rejected = 0;
  ignored: string[] = [];
  private readonly listed: string[] = [];
  private readonly rejectsFile: fs.WriteStream | undefined;

  constructor(private readonly rejectsPath: string | undefined) {
    this.rejectsFile = rejectsPath ? fs.createWriteStream(rejectsPath) : undefined;
  }

  /** The rejects file's header: the file's own, then `reason`. */
  async start(header: readonly string[]): Promise<void> {
    if (this.rejectsFile) await writeWithBackpressure(this.rejectsFile, stringify([[...header, 'reason']]));
  }

  /** A row refused, with the line it starts on: listed in the summary and written to the rejects file. */
  async reject(line: number, cells: readonly string[], reason: string): Promise<void> {
    this.rejected += 1;
    const described = `line ${line}: ${reason}`;
    if (this.listed.length < listedRejects) this.listed.push(described);
    if (this.rejectsFile) await writeWithBackpressure(this.rejectsFile, stringify([[...cells, described]]));
  }

  async close(): Promise<void> {
    const file = this.rejectsFile;
    if (file) await new Promise<void>((resolve) => file.end(resolve));
  }

  /** The summary; with `written` false, nothing was written, whatever was counted before the rollback. */
  print(written: boolean): void {
    const [created, updated] = written ? [this.created, this.updated] : [0, 0];
    const where = this.rejected > 0 && this.rejectsPath ? ` (see ${this.rejectsPath})` : '';
    const ignored = this.ignored.length > 0 ? `; ignored columns: ${this.ignored.join('; ')}` : '';
    const lines = [`imported ${created}, updated ${updated}, rejected ${this.rejected}${where}${ignored}${written ? '' : '; nothing written'}`, ...this.listed];
    const unlisted = this.rejected - this.listed.length;
    if (unlisted > 0) lines.push(`… and ${unlisted} more rejected rows${this.rejectsPath ? ` (all in ${this.rejectsPath})` : ' (rerun with --rejects FILE to see them all)'}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
