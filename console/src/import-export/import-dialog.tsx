import { useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import { keys } from '../api/queries';
import type { Field, Table } from '../api/types';
import { Button } from '../ui/button';
import { CellRefused, convertRow, guessTargets, mappingProblem, type ColumnTarget, type ImportAccess } from './csv-cells';
import { fieldOfTarget, ImportMapping } from './import-mapping';
import { parseCsv, type ParsedCsv } from './parse-csv';
import { pauseLiveTable } from '../live/use-live-table';
import { sendRows, type PendingRow, type Rejection, type SendResult } from './send-import';

/** Rows converted and checked between two pauses of the page's thread. */
const checkChunk = 2000;
/** Rejected rows listed in the report (all of them are counted). */
const reportedRows = 100;

interface Report {
  imported: number;
  rejected: Rejection[];
  /** Nothing was kept: why, in words. */
  nothingWritten?: string;
  leftOver?: number;
}

type Step = { kind: 'file'; error?: string; reading?: boolean } | { kind: 'map'; csv: ParsedCsv; fileName: string; targets: ColumnTarget[]; error?: string } | { kind: 'sending'; sent: number; total: number } | { kind: 'report'; report: Report };

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
 * text fields offered); a preview; then every row converted and checked in the browser, and sent
 * 1,000 a batch with progress. All or nothing unless "Import the valid rows" is chosen: a row
 * refused here sends nothing (and creates no field); one refused by the server takes back what
 * was written (docs/decisions.md, "Console CSV import").
 */
export function ImportDialog({ table, access }: { table: Table; access: ImportAccess }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'file' });
  const [keepValid, setKeepValid] = useState(false);

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

  const run = async (csv: ParsedCsv, fileName: string, targets: ColumnTarget[]) => {
    const problem = mappingProblem(csv.header, targets);
    if (problem) return setStep({ kind: 'map', csv, fileName, targets, error: problem });
    const fields = csv.header.map((column, index) => fieldOfTarget(targets[index], column, table.fields));
    // New fields are converted under a placeholder id until they exist.
    const placeholders = fields.map((field, index) => (field && targets[index].kind === 'new' ? ({ ...field, id: `\u0000${index}` } as Field) : field));
    const rejected: Rejection[] = [];
    const pending: PendingRow[] = [];
    setStep({ kind: 'sending', sent: 0, total: csv.rows.length });
    for (const [index, row] of csv.rows.entries()) {
      // A pause now and then keeps the page responsive while a large file is checked.
      if (index % checkChunk === checkChunk - 1) await new Promise((resolve) => setTimeout(resolve));
      try {
        pending.push({ line: row.line, data: convertRow(row.cells, csv.header.length, placeholders) });
      } catch (error) {
        if (!(error instanceof CellRefused)) throw error;
        rejected.push({ line: row.line, reason: error.message });
      }
    }
    if (pending.length === 0 || (rejected.length > 0 && !keepValid)) {
      const why = pending.length === 0 ? 'no row can be imported' : `${rejected.length === 1 ? 'a row was' : `${rejected.length} rows were`} rejected (an import is all or nothing: fix ${rejected.length === 1 ? 'it' : 'them'}, or choose "Import the valid rows")`;
      return setStep({ kind: 'report', report: { imported: 0, rejected, nothingWritten: why } });
    }
    setStep({ kind: 'sending', sent: 0, total: pending.length });
    const newColumns = targets.flatMap((target, index) => (target.kind === 'new' ? [index] : []));
    let slugs: string[];
    try {
      slugs = await createFields(table, newColumns.map((index) => csv.header[index]));
    } catch (error) {
      return setStep({ kind: 'report', report: { imported: 0, rejected, nothingWritten: `the new fields could not be created: ${(error as Error).message}` } });
    }
    const rename = new Map(newColumns.map((index, at) => [`\u0000${index}`, slugs[at]]));
    for (const row of pending) {
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
      sent = await sendRows(table.id, pending, keepValid, (count) => setStep({ kind: 'sending', sent: count, total: pending.length }));
    } finally {
      resumeLive();
    }
    const all = [...rejected, ...sent.rejected].sort((a, b) => a.line - b.line);
    const takenBack = sent.failure !== undefined || (sent.rejected.length > 0 && !keepValid);
    if (takenBack && sent.leftOver === 0) await deleteFields(table.id, slugs);
    await queryClient.invalidateQueries({ queryKey: keys.table(table.id) });
    void queryClient.invalidateQueries({ queryKey: keys.records(table.id) });
    const why = sent.failure ? `the import failed: ${sent.failure}` : `the server rejected ${sent.rejected.length === 1 ? 'a row' : `${sent.rejected.length} rows`} (an import is all or nothing)`;
    setStep({ kind: 'report', report: takenBack ? { imported: sent.imported, rejected: all, nothingWritten: why, leftOver: sent.leftOver } : { imported: sent.imported, rejected: all } });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    void read(event.dataTransfer.files[0]);
  };
  const busy = step.kind === 'sending' || (step.kind === 'file' && step.reading);

  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        if (busy && !next) return;
        setOpen(next);
        if (next) {
          setStep({ kind: 'file' });
          setKeepValid(false);
        }
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
                      <label className="checkbox-field">
                        <input type="checkbox" checked={keepValid} onChange={(event) => setKeepValid(event.target.checked)} /> Import the valid rows even if some are rejected
                      </label>
                      {step.error && (
                        <p className="form-error" role="alert">
                          {step.error}
                        </p>
                      )}
                    </>
                  )}
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
                      <Button variant="primary" onPress={() => void run(step.csv, step.fileName, step.targets)}>
                        Import {step.csv.rows.length.toLocaleString('en')} rows
                      </Button>
                    </>
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
      {count > 0 && (
        <>
          <h3 className="field-label">Rejected rows</h3>
          <ul className="import-rejections">
            {report.rejected.slice(0, reportedRows).map((rejection) => (
              <li key={rejection.line}>
                line {rejection.line}: {rejection.reason}
              </li>
            ))}
          </ul>
          {count > reportedRows && <p className="field-hint">… and {(count - reportedRows).toLocaleString('en')} more.</p>}
        </>
      )}
    </section>
  );
}
