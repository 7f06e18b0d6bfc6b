import { useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import { keys } from '../api/queries';
import type { Field, Table } from '../api/types';
import { Button } from '../ui/button';
import { guessTargets, mappingProblem, type ColumnTarget, type ImportAccess } from './csv-cells';
import { fieldOfTarget, ImportMapping } from './import-mapping';
import { parseCsv, type ParsedCsv } from './parse-csv';
import { pauseLiveTable } from '../live/use-live-table';
import { sendRows, type PendingRow, type Rejection, type SendResult } from './send-import';
import { checkRows, convertRows, validateOn } from './check-import';

/** Rejected rows listed in a report (all of them are counted). */
const reportedRows = 100;

interface Report {
  imported: number;
  rejected: Rejection[];
  /** Nothing was kept: why, in words. */
  nothingWritten?: string;
  leftOver?: number;
}

/** An import checked and not yet written: the rows that passed, the columns that become new fields. */
interface CheckedImport {
  valid: PendingRow[];
  rejected: Rejection[];
  header: string[];
  newColumns: number[];
}

type Step =
  | { kind: 'file'; error?: string; reading?: boolean }
  | { kind: 'map'; csv: ParsedCsv; fileName: string; targets: ColumnTarget[]; error?: string }
  | { kind: 'checking'; checked: number; total: number }
  | { kind: 'review'; checked: CheckedImport }
  | { kind: 'sending'; sent: number; total: number }
  | { kind: 'report'; report: Report };

/** A column's placeholder key in a row's data while its new field does not exist yet. */
const placeholderOf = (column: number) => `\u0000${column}`;

const rowsText = (count: number) => `${count.toLocaleString('en')} ${count === 1 ? 'row' : 'rows'}`;

/** Creates the new fields (text, named after their columns), in column order: answers each one's slug, or deletes those made and throws. */
async function createFields(table: Table, names: string[]): Promise<string[]> {
  const slugs: string[] = [];
  let known = new Set(table.fields.map((field) => field.id));
  try {
    for (const name of names) {
      const after = (await unwrap(api.POST('/api/table/{tid}/fields/create', { params: { path: { tid: table.id } }, body: { name, type: 'text' } as never }))) as unknown as Table;
      slugs.push(after.fields.find((field) => !known.has(field.id))!.id);
      known = new Set(after.fields.map((field) => field.id));
    }
    return slugs;
  } catch (error) {
    await deleteFields(table.id, slugs);
    throw error;
  }
}

async function deleteFields(tid: number, slugs: string[]) {
  for (const slug of slugs) await unwrap(api.POST('/api/table/{tid}/field/{slug}/delete', { params: { path: { tid, slug } } })).catch(() => undefined);
}

/**
 * "Import CSV": a file picked or dropped, parsed in a worker; its columns mapped to fields (new
 * text fields offered); a preview; then every row converted and checked in the browser, and the
 * rest checked by the server (records/validate_batch, 1,000 a call) — nothing written. Rows
 * refused by either are reported by line before anything is written, with "Import N valid
 * rows" or "Cancel"; a clean file goes straight on. Accepted, the new fields are created and
 * the rows sent 1,000 a batch with progress; a failure while writing takes back what was
 * written (docs/decisions.md, "validate_batch; the console's CSV import checks, then writes").
 */
export function ImportDialog({ table, access }: { table: Table; access: ImportAccess }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'file' });

  const read = async (file: File | undefined) => {
    if (!file) return;
    setStep({ kind: 'file', reading: true });
    try {
      const csv = await parseCsv(file);
      if (csv.error) setStep({ kind: 'file', error: `${file.name} cannot be imported: ${csv.error}` });
      else setStep({ kind: 'map', csv, fileName: file.name, targets: guessTargets(csv.header, table.fields, access) });
    } catch (error) {
      setStep({ kind: 'file', error: `${file.name} cannot be read: ${(error as Error).message}` });
    }
  };

  /** Converts and checks every row (the browser's rules, then the server's), writing nothing; a clean file goes on to `write`. */
  const check = async (csv: ParsedCsv, fileName: string, targets: ColumnTarget[]) => {
    const problem = mappingProblem(csv.header, targets);
    if (problem) return setStep({ kind: 'map', csv, fileName, targets, error: problem });
    const fields = csv.header.map((column, index) => fieldOfTarget(targets[index], column, table.fields));
    // New fields are converted under a placeholder id until they exist.
    const newColumns = targets.flatMap((target, index) => (target.kind === 'new' ? [index] : []));
    const placeholders = fields.map((field, index) => (field && targets[index].kind === 'new' ? ({ ...field, id: placeholderOf(index) } as Field) : field));
    setStep({ kind: 'checking', checked: 0, total: csv.rows.length });
    const { pending, rejected } = await convertRows(csv, placeholders);
    if (pending.length === 0) return setStep({ kind: 'report', report: { imported: 0, rejected, nothingWritten: 'no row can be imported' } });
    const browserRejected = rejected.length;
    // The new fields' cells are not sent: those fields do not exist until the import is accepted.
    const leaveOut = new Set(newColumns.map(placeholderOf));
    let serverRejected: Rejection[];
    try {
      serverRejected = await checkRows(pending, validateOn(table.id), (count) => setStep({ kind: 'checking', checked: browserRejected + count, total: csv.rows.length }), leaveOut);
    } catch (error) {
      return setStep({ kind: 'report', report: { imported: 0, rejected, nothingWritten: `the rows could not be checked: ${(error as Error).message}` } });
    }
    const refusedLines = new Set(serverRejected.map((rejection) => rejection.line));
    const checked: CheckedImport = {
      valid: refusedLines.size === 0 ? pending : pending.filter((row) => !refusedLines.has(row.line)),
      rejected: [...rejected, ...serverRejected].sort((a, b) => a.line - b.line),
      header: csv.header,
      newColumns,
    };
    if (checked.valid.length === 0) return setStep({ kind: 'report', report: { imported: 0, rejected: checked.rejected, nothingWritten: 'no row can be imported' } });
    if (checked.rejected.length > 0) return setStep({ kind: 'review', checked });
    await write(checked);
  };

  /** Creates the new fields and writes the rows checked; a failure takes back what was written. */
  const write = async ({ valid, rejected, header, newColumns }: CheckedImport) => {
    setStep({ kind: 'sending', sent: 0, total: valid.length });
    let slugs: string[];
    try {
      slugs = await createFields(table, newColumns.map((index) => header[index]));
    } catch (error) {
      return setStep({ kind: 'report', report: { imported: 0, rejected, nothingWritten: `the new fields could not be created: ${(error as Error).message}` } });
    }
    const rename = new Map(newColumns.map((index, at) => [placeholderOf(index), slugs[at]]));
    for (const row of valid) {
      for (const [placeholder, slug] of rename) {
        row.data[slug] = row.data[placeholder];
        delete row.data[placeholder];
      }
    }
    // The table's live stream in this tab is held closed meanwhile: it would bring back every
    // imported record as a change of its own and refetch the grid and its count every 100 ms,
    // work the server does between batches (docs/decisions.md, "Console: live views, CSV import and export").
    const resumeLive = pauseLiveTable(table.id);
    let sent: SendResult;
    try {
      sent = await sendRows(table.id, valid, (count) => setStep({ kind: 'sending', sent: count, total: valid.length }));
    } finally {
      resumeLive();
    }
    if (sent.failure !== undefined && sent.leftOver === 0) await deleteFields(table.id, slugs);
    await queryClient.invalidateQueries({ queryKey: keys.table(table.id) });
    void queryClient.invalidateQueries({ queryKey: keys.records(table.id) });
    const all = sent.refused ? [...rejected, sent.refused].sort((a, b) => a.line - b.line) : rejected;
    setStep({ kind: 'report', report: sent.failure !== undefined ? { imported: sent.imported, rejected: all, nothingWritten: `the import failed: ${sent.failure}`, leftOver: sent.leftOver } : { imported: sent.imported, rejected } });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    void read(event.dataTransfer.files[0]);
  };
  const busy = step.kind === 'checking' || step.kind === 'sending' || (step.kind === 'file' && step.reading);

  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        if (busy && !next) return;
        setOpen(next);
        if (next) setStep({ kind: 'file' });
      }}
    >
      <Button variant="secondary">Import CSV</Button>
      <ModalOverlay className="modal-overlay" isDismissable={!busy}>
        <Modal className="modal modal-wide">
          <Dialog className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title" className="dialog-title">
                  Import CSV into {table.name}
                </Heading>
                <div className="dialog-body">
                  {step.kind === 'file' && (
                    <div className="drop-zone" onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
                      <label className="field-label" htmlFor="import-file">
                        CSV file
                      </label>
                      <input id="import-file" type="file" accept=".csv,text/csv" className="input" disabled={step.reading} onChange={(event) => void read(event.target.files?.[0])} />
                      <p className="field-hint">Or drop the file here. The first row names the columns.</p>
                      {step.reading && <p role="status">Reading the file…</p>}
                      {step.error && (
                        <p className="form-error" role="alert">
                          {step.error}
                        </p>
                      )}
                    </div>
                  )}
                  {step.kind === 'map' && (
                    <>
                      <p className="field-hint">
                        {step.fileName}: {step.csv.rows.length.toLocaleString('en')} rows, {step.csv.header.length} columns. Choose where each column goes.
                      </p>
                      <ImportMapping csv={step.csv} fields={table.fields} access={access} targets={step.targets} onChange={(targets) => setStep({ ...step, targets, error: undefined })} />
                      {step.error && (
                        <p className="form-error" role="alert">
                          {step.error}
                        </p>
                      )}
                    </>
                  )}
                  {step.kind === 'checking' && (
                    <div role="status">
                      <progress className="import-progress" aria-label="Check progress" value={step.checked} max={step.total} />
                      <p>
                        Checking rows… {step.checked.toLocaleString('en')} of {step.total.toLocaleString('en')}
                      </p>
                    </div>
                  )}
                  {step.kind === 'review' && <ImportReview checked={step.checked} />}
                  {step.kind === 'sending' && (
                    <div role="status">
                      <progress className="import-progress" aria-label="Import progress" value={step.sent} max={step.total} />
                      <p>
                        Sent {step.sent.toLocaleString('en')} of {step.total.toLocaleString('en')} rows…
                      </p>
                    </div>
                  )}
                  {step.kind === 'report' && <ImportReport report={step.report} />}
                </div>
                <div className="dialog-actions">
                  {step.kind === 'map' && (
                    <>
                      <Button onPress={() => setStep({ kind: 'file' })}>Choose another file</Button>
                      <Button variant="primary" onPress={() => void check(step.csv, step.fileName, step.targets)}>
                        Import {step.csv.rows.length.toLocaleString('en')} rows
                      </Button>
                    </>
                  )}
                  {step.kind === 'review' && (
                    <Button variant="primary" onPress={() => void write(step.checked)}>
                      Import {step.checked.valid.length.toLocaleString('en')} valid {step.checked.valid.length === 1 ? 'row' : 'rows'}
                    </Button>
                  )}
                  <Button onPress={close} isDisabled={busy}>
                    {step.kind === 'report' ? 'Close' : 'Cancel'}
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

/** Before anything is written: the rows refused, by line, and what accepting would import. */
function ImportReview({ checked }: { checked: CheckedImport }) {
  const total = checked.valid.length + checked.rejected.length;
  return (
    <section aria-label="Rejected rows">
      <p role="alert">
        {rowsText(checked.rejected.length)} of {total.toLocaleString('en')} {checked.rejected.length === 1 ? 'is' : 'are'} rejected. Nothing has been written yet: import the {rowsText(checked.valid.length)} that passed, or cancel and fix the file.
      </p>
      <RejectedRows rejected={checked.rejected} />
    </section>
  );
}

/** The outcome: what was imported, or that nothing was and why; every rejected row with its line. */
function ImportReport({ report }: { report: Report }) {
  const count = report.rejected.length;
  return (
    <section aria-label="Import report">
      <p role={report.nothingWritten ? 'alert' : 'status'} className={report.nothingWritten ? 'form-error' : undefined}>
        {report.nothingWritten
          ? `Nothing imported: ${report.nothingWritten}.${report.leftOver ? ` ${report.leftOver.toLocaleString('en')} records written before the failure could not be deleted again.` : ''}`
          : `Imported ${report.imported.toLocaleString('en')} ${report.imported === 1 ? 'record' : 'records'}${count ? `; ${count.toLocaleString('en')} rejected ${count === 1 ? 'row was' : 'rows were'} left out` : ''}.`}
      </p>
      <RejectedRows rejected={report.rejected} />
    </section>
  );
}

/** Each rejected row with its line and why, the first `reportedRows` of them. */
function RejectedRows({ rejected }: { rejected: Rejection[] }) {
  const count = rejected.length;
  if (count === 0) return null;
  return (
    <>
      <h3 className="field-label">Rejected rows</h3>
      <ul className="import-rejections">
        {rejected.slice(0, reportedRows).map((rejection) => (
          <li key={rejection.line}>
            line {rejection.line}: {rejection.reason}
          </li>
        ))}
      </ul>
      {count > reportedRows && <p className="field-hint">… and {(count - reportedRows).toLocaleString('en')} more.</p>}
    </>
  );
}
