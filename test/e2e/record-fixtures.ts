import type { Page } from '@playwright/test';
import type { TabulaServer } from './tabula-server.js';

export interface RecordSetUp {
  space: { id: number };
  table: { id: number };
  grace: { id: number; email: string; password: string };
  records: { id: number }[];
}

let users = 0;

/** A space with a table of several types, three records, and a member (Grace Hopper, an editor) to mention. */
export async function setUpRecords(tabula: TabulaServer, name: string): Promise<RecordSetUp> {
  const space = await tabula.api<{ id: number }>('/api/spaces/create', { name });
  const table = await tabula.api<{ id: number }>(`/api/space/${space.id}/tables/create`, {
    name: 'Deals',
    fields: [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'amount', name: 'Amount', type: 'number', decimals: 2 },
      { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }] },
      { id: 'closed', name: 'Closed', type: 'checkbox' },
      { id: 'notes', name: 'Notes', type: 'longtext' },
      { id: 'files', name: 'Files', type: 'file' },
    ],
  });
  const records = await tabula.api<{ id: number }[]>(`/api/table/${table.id}/records/create_batch`, { records: [{ data: { name: 'Acme' } }, { data: { name: 'Globex' } }, { data: { name: 'Initech' } }] });
  users += 1;
  const email = `grace${users}-${Date.now()}@example.com`;
  const password = 'grace-password-1';
  const grace = await tabula.api<{ id: number }>('/api/users/create', { email, name: 'Grace Hopper', password });
  await tabula.api(`/api/space/${space.id}/members/add`, { user_id: grace.id, role: 'editor' });
  return { space, table, grace: { id: grace.id, email, password }, records };
}

/** A 1×1 PNG followed by `padding` zero bytes (browsers ignore what follows the image's end). */
export async function dropPng(page: Page, target: string, name: string, padding: number): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, padding }) => {
      const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (char) => char.charCodeAt(0));
      // A file put in a DataTransfer by script has no file-system entry (webkitGetAsEntry() is
      // null only then; an operating system's drop always has one), and react-aria skips such
      // items: the page under test is told it is a plain file, as a real drop would say.
      const entryOf = DataTransferItem.prototype.webkitGetAsEntry;
      DataTransferItem.prototype.webkitGetAsEntry = function (this: DataTransferItem) {
        return entryOf.call(this) ?? (this.kind === 'file' ? ({ isFile: true, isDirectory: false } as FileSystemEntry) : null);
      };
      const transfer = new DataTransfer();
      transfer.items.add(new File([png, new Uint8Array(padding)], name, { type: 'image/png' }));
      transfer.effectAllowed = 'all';
      return transfer;
    },
    { name, padding },
  );
  const zone = page.locator(target);
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/** A one-page PDF drawing a filled square (no font needed). */
export function tinyPdf(): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>'];
  const stream = '0 0.4 0.8 rg 20 20 160 160 re f';
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
