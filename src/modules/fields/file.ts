import { ValidationError } from '../../shared/errors.js';
import { attachmentsOf, type AttachmentInput } from './attachment.js';
import type { Field } from './field.js';
import type { FieldType } from './field-type.js';
import { compareEmptiness, FieldValueError, isEmptyInput, unsupportedOperator } from './value-helpers.js';

const attachmentKeys = new Set(['name', 'path', 'type', 'size', 'host']);
const sourceKeys = new Set(['name', 'type']);

function optionalText(field: Field, item: Record<string, unknown>, key: string, index: number): string | null {
  const value = item[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new FieldValueError(field, `item ${index}: ${key} must be a string`);
  return value;
}

/** Checks the shape of one written item (never its bytes: those are the files capability's). */
function parseAttachmentInput(field: Field, raw: unknown, index: number): AttachmentInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new FieldValueError(field, `item ${index} must be an attachment object ({name, path, type, size, host}) or a source descriptor ({url} or {data})`);
  }
  const item = raw as Record<string, unknown>;
  const given = ['path', 'url', 'data'].filter((key) => item[key] !== undefined);
  if (given.length !== 1) throw new FieldValueError(field, `item ${index} must carry exactly one of path (an attachment), url or data (a source descriptor)`);
  const [kind] = given;
  const allowed = kind === 'path' ? attachmentKeys : sourceKeys;
  const unknown = Object.keys(item).find((key) => key !== kind && !allowed.has(key));
  if (unknown) throw new FieldValueError(field, `item ${index}: unknown property "${unknown}"`);
  const value = item[kind];
  if (typeof value !== 'string' || value === '') throw new FieldValueError(field, `item ${index}: ${kind} must be a non-empty string`);
  if (kind === 'path') return { kind: 'stored', path: value };
  const name = optionalText(field, item, 'name', index);
  const type = optionalText(field, item, 'type', index);
  return kind === 'url' ? { kind: 'url', url: value, name, type } : { kind: 'inline', data: value, name, type };
}

/** At most this many attachments in one file field. */
export const maxAttachmentsPerField = 100;

/**
 * Attachments: always an array of attachment objects. Writes take attachment objects and
 * source descriptors; their bytes are the files capability's business (`ctx.files`), reached
 * through the lifecycle: `prepare` stores what the write brings before the transaction,
 * `afterCommit` makes it live and releases what it replaced, the deletion hooks release what
 * a deletion leaves.
 */
export const fileField: FieldType = {
  name: 'file',
  multiplicity: 'always',
  settingKeys: ['image_only'],
  parseSettings(raw) {
    const imageOnly = raw.image_only ?? false;
    if (typeof imageOnly !== 'boolean') throw new ValidationError('Invalid field definition: image_only must be a boolean');
    return { image_only: imageOnly };
  },
  columnType: (dialect) => dialect.jsonType,
  sortable: false,
  searchable: false,
  matchable: false,
  /** The items' shapes only: an array of AttachmentInput, turned into attachments by prepare. */
  toStored(input, field) {
    if (isEmptyInput(input)) return null;
    const items = Array.isArray(input) ? input : [input];
    if (items.length > maxAttachmentsPerField) throw new FieldValueError(field, `at most ${maxAttachmentsPerField} attachments`);
    return items.map((item, index) => parseAttachmentInput(field, item, index));
  },
  readMany: (stored) => stored.map((value) => value ?? []),
  compileFilter(op, _value, field, ctx) {
    if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
    throw unsupportedOperator(field, op);
  },
  async prepare(stored, field, ctx) {
    if (stored === null) return { stored: null };
    const { attachments, cleanup } = await ctx.files.store(stored as AttachmentInput[], field, ctx);
    return { stored: attachments.length === 0 ? null : attachments, cleanup };
  },
  afterCommit(change, field, ctx) {
    return ctx.files.settle(attachmentsOf(change.stored), change.previous === undefined ? [] : attachmentsOf(change.previous), field, ctx);
  },
  onRecordsDeleted(stored, _field, ctx) {
    return ctx.files.releaseAttachments(ctx.db, stored.flatMap(attachmentsOf));
  },
  onFieldDeleted(field, ctx) {
    return ctx.files.releaseField(ctx.db, field);
  },
};
