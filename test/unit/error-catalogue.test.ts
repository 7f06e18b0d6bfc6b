import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, ErrorCode } from '../../src/shared/error-codes.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../src/shared/errors.js';

const errorsDoc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/errors.md');

interface DocumentedCode {
  code: string;
  /** null where the page names the code without a status (the command-line table's `invalid_parameters`). */
  status: number | null;
  line: number;
}

/**
 * Every code in a table of docs/errors.md: the first backquoted snake_case word of the `code`
 * column. Its status comes from the row's `status` column, else from a `(409)` after the
 * code, else from the section heading (`### 404 Not Found`).
 */
function documentedCodes(markdown: string): DocumentedCode[] {
  const found: DocumentedCode[] = [];
  let headingStatus: number | null = null;
  let header: string[] | null = null;
  const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
  markdown.split('\n').forEach((line, index) => {
    const heading = /^#{2,3} (.*)$/.exec(line);
    if (heading) {
      const status = /^(\d{3})\b/.exec(heading[1]);
      headingStatus = status ? Number(status[1]) : null;
      header = null;
      return;
    }
    if (!line.startsWith('|')) {
      header = null;
      return;
    }
    if (/^\|[-| ]+\|$/.test(line.trim())) return;
    if (header === null) {
      header = cells(line).map((cell) => cell.toLowerCase());
      return;
    }
    const row = cells(line);
    const codeCell = row[header.indexOf('code')] ?? '';
    const code = /^`([a-z][a-z0-9]*(?:_[a-z0-9]+)*)`/.exec(codeCell);
    if (!code) return;
    const statusColumn = header.indexOf('status');
    const inline = /\((\d{3})\)/.exec(codeCell);
    const status = statusColumn >= 0 ? Number(row[statusColumn]) : inline ? Number(inline[1]) : headingStatus;
    found.push({ code: code[1], status, line: index + 1 });
  });
  return found;
}

describe('the error catalogue', () => {
  const documented = documentedCodes(fs.readFileSync(errorsDoc, 'utf8'));

  it('finds the tables of docs/errors.md', () => {
    expect(documented.length).toBeGreaterThan(40);
    expect(documented).toContainEqual(expect.objectContaining({ code: 'record_not_found', status: 400 }));
    expect(documented).toContainEqual(expect.objectContaining({ code: 'query_timeout', status: 503 }));
    expect(documented).toContainEqual(expect.objectContaining({ code: 'email_taken', status: 409 }));
  });

  it('declares each code once', () => {
    const names = Object.keys(ErrorCode);
    expect(new Set(Object.values(ErrorCode)).size).toBe(names.length);
    expect(errorCatalogue.size).toBe(names.length);
    for (const [code, status] of errorCatalogue) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
    }
    expect(Object.isFrozen(ErrorCode)).toBe(true);
  });

  it('documents every code of the catalogue in docs/errors.md, with its status', () => {
    const missing = [...errorCatalogue].filter(([code, status]) => !documented.some((entry) => entry.code === code && entry.status === status));
    expect(missing.map(([code, status]) => `${status} ${code}`)).toEqual([]);
  });

  it('documents no code that is not in the catalogue, nor a code under another status', () => {
    const unknown = documented.filter((entry) => !errorCatalogue.has(entry.code as ErrorCode));
    expect(unknown.map((entry) => `docs/errors.md:${entry.line} ${entry.code}`)).toEqual([]);
    const wrongStatus = documented.filter((entry) => entry.status !== null && errorCatalogue.get(entry.code as ErrorCode) !== entry.status);
    expect(wrongStatus.map((entry) => `docs/errors.md:${entry.line} ${entry.code} documented as ${entry.status}, declared ${errorCatalogue.get(entry.code as ErrorCode)}`)).toEqual([]);
  });

  it('gives an error the status of its code', () => {
    expect(new ValidationError('Record not found', ErrorCode.recordNotFound)).toMatchObject({ status: 400, code: 'record_not_found', message: 'Record not found' });
    expect(new NotFoundError()).toMatchObject({ status: 404, code: 'not_found' });
    expect(new ConflictError('Email already in use: a@example.com', ErrorCode.emailTaken)).toMatchObject({ status: 409, code: 'email_taken' });
    for (const [code, status] of errorCatalogue) expect(new AppError(code, 'x').status, code).toBe(status);
  });
});
