import { ErrorCode, ValidationError } from '../../shared/errors.js';
import type { RecordObject } from './record-reader.js';

const mebibyte = 1024 * 1024;

/**
 * Largest record response, in estimated characters of JSON: `TABULA_MAX_RESPONSE_MB` may lower
 * it, never raise it. The estimate counts each string's characters, not its escapes, and JSON
 * escaping makes a string at most six times longer (`\u0001`), so 6 × 80 MiB stays under V8's
 * longest string (2^29 − 24 characters), which JSON.stringify would otherwise hit with a 500.
 * It also lets any record written in one request (bodies ≤ 70 MiB) be read back in one.
 */
export const maxResponseMegabytes = 80;

/** Roughly how many characters `value` takes as JSON (escapes not counted). */
function estimateJsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null) return 24;
  let length = 2;
  if (Array.isArray(value)) {
    for (const item of value) length += estimateJsonLength(item) + 1;
    return length;
  }
  // for…in rather than Object.entries: no array per object, on every record of every page.
  for (const key in value) length += key.length + 4 + estimateJsonLength((value as Record<string, unknown>)[key]);
  return length;
}

function estimateRecordLength(record: RecordObject): number {
  // id, title, created_at and updated_at with their keys: about 100 characters besides the title.
  return 100 + (record.title?.length ?? 0) + estimateJsonLength(record.data);
}

/**
 * Refuses, with a 400 naming the way out, a response of records larger than `maxSize`
 * characters, before it is serialised: a page of many large records would otherwise cost
 * gigabytes of memory and end in a 500 when the JSON text outgrows V8's longest string.
 * `advice` says how to ask for less (a smaller `limit`, fewer `fields`).
 */
export function assertResponseFits(records: readonly RecordObject[], maxSize: number, subject: string, advice: string): void {
  let length = 2;
  for (const record of records) {
    length += estimateRecordLength(record) + 1;
    if (length > maxSize) {
      throw new ValidationError(`Response too large: ${subject} more than ${Math.round(maxSize / mebibyte)} MB of data; ${advice}`, ErrorCode.responseTooLarge);
    }
  }
}
