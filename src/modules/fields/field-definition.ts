import { ErrorCode, ValidationError } from '../../shared/errors.js';
import type { Field, FieldDraft, FieldSettings } from './field.js';
import type { FieldType, SettingsContext } from './field-type.js';
import { getFieldType } from './registry.js';
import { describeNameProblem } from '../../shared/display-name.js';

const commonKeys = ['id', 'name', 'type', 'multiple', 'required', 'editable_by', 'hidden'];
const allTypeKeys = ['options', 'table_id', 'decimals', 'image_only'];
const slugPattern = /^[a-z][a-z0-9_]{0,62}$/;
export const reservedSlugs = new Set(['id', 'title', 'created_at', 'updated_at']);

const errorCode = ErrorCode.invalidFieldDefinition;

function fail(message: string): never {
  throw new ValidationError(`Invalid field definition: ${message}`, errorCode);
}

/** Field types throw plain ValidationErrors; every definition problem answers the same code. */
async function withDefinitionCode<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError && error.code !== errorCode) throw new ValidationError(error.message, errorCode);
    throw error;
  }
}

/** `"Email Address"` → `email_address`; accents folded, anything else becomes `_`. */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 56);
  if (!base) return 'field';
  return /^[a-z]/.test(base) ? base : `f_${base}`;
}

export function uniqueSlug(name: string, taken: ReadonlySet<string>): string {
  const base = slugify(name);
  if (!taken.has(base) && !reservedSlugs.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

export function checkSlug(slug: unknown, taken: ReadonlySet<string>): string {
  if (typeof slug !== 'string' || !slugPattern.test(slug)) fail(`id must match ^[a-z][a-z0-9_]{0,62}$, got ${JSON.stringify(slug)}`);
  if (reservedSlugs.has(slug)) fail(`id "${slug}" is reserved`);
  if (taken.has(slug)) fail(`id "${slug}" is already used in this table`);
  return slug;
}

function checkName(raw: unknown): string {
  if (typeof raw !== 'string') fail('name must be a string');
  const name = raw.trim();
  const problem = describeNameProblem(name);
  if (problem) fail(`name ${problem}`);
  return name;
}

function checkType(raw: unknown): FieldType {
  if (typeof raw !== 'string') fail('type is required and must be a string');
  return getFieldType(raw);
}

function checkObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('must be an object');
  return raw as Record<string, unknown>;
}

function pickTypeSettings(raw: Record<string, unknown>, settingKeys: readonly string[], type: string): FieldSettings {
  const settings: FieldSettings = {};
  for (const key of allTypeKeys) {
    if (raw[key] === undefined) continue;
    if (!settingKeys.includes(key)) fail(`${key} does not apply to ${type} fields`);
    settings[key] = raw[key];
  }
  return settings;
}

function checkCommonOptions(raw: Record<string, unknown>, current?: FieldDraft) {
  // Only an absent key means "keep" (or the default); an explicit null is not a value of editable_by or required.
  const editableBy = raw.editable_by === undefined ? (current?.editableBy ?? 'members') : raw.editable_by;
  if (!['members', 'admins', 'none'].includes(editableBy as string)) fail('editable_by must be members, admins or none');
  const hidden = raw.hidden === undefined ? (current?.hidden ?? null) : raw.hidden;
  if (hidden !== null && hidden !== 'always') fail('hidden must be "always" or null');
  const required = raw.required === undefined ? (current?.required ?? false) : raw.required;
  if (typeof required !== 'boolean') fail('required must be a boolean');
  return { editableBy: editableBy as FieldDraft['editableBy'], hidden: hidden as FieldDraft['hidden'], required };
}

function checkUnknownKeys(raw: Record<string, unknown>): void {
  const unknown = Object.keys(raw).find((key) => !commonKeys.includes(key) && !allTypeKeys.includes(key));
  if (unknown) fail(`unknown property "${unknown}"`);
}

/**
 * Validates a new field's definition; `taken` holds the table's slugs so far. A generated slug
 * also avoids `claimed`: ids given explicitly to fields defined later in the same request.
 */
export function parseFieldDefinition(input: unknown, taken: ReadonlySet<string>, ctx: SettingsContext, claimed: ReadonlySet<string> = new Set()): Promise<FieldDraft> {
  return withDefinitionCode(() => parseNewField(input, taken, ctx, claimed));
}

async function parseNewField(input: unknown, taken: ReadonlySet<string>, ctx: SettingsContext, claimed: ReadonlySet<string>): Promise<FieldDraft> {
  const raw = checkObject(input);
  checkUnknownKeys(raw);
  const name = checkName(raw.name);
  const fieldType = checkType(raw.type);
  const slug = raw.id === undefined ? uniqueSlug(name, new Set([...taken, ...claimed])) : checkSlug(raw.id, taken);
  if (raw.multiple !== undefined && typeof raw.multiple !== 'boolean') fail('multiple must be a boolean');
  const multiple = fieldType.multiplicity === 'always' ? true : raw.multiple === true;
  if (fieldType.multiplicity === 'single' && multiple) fail(`${fieldType.name} fields cannot be multiple`);
  if (fieldType.multiplicity === 'always' && raw.multiple === false) fail(`${fieldType.name} fields are always multiple`);
  const settings = await fieldType.parseSettings(pickTypeSettings(raw, fieldType.settingKeys, fieldType.name), ctx);
  return { slug, name, type: fieldType.name, multiple, ...checkCommonOptions(raw), settings };
}

/** Validates a partial update; type, multiple and a lookup's table cannot change (stored values depend on them). */
export function parseFieldUpdate(input: unknown, current: Field, taken: ReadonlySet<string>, ctx: SettingsContext): Promise<FieldDraft> {
  return withDefinitionCode(() => parseChanges(input, current, taken, ctx));
}

async function parseChanges(input: unknown, current: Field, taken: ReadonlySet<string>, ctx: SettingsContext): Promise<FieldDraft> {
  const raw = checkObject(input);
  checkUnknownKeys(raw);
  if (raw.type !== undefined && raw.type !== current.type) fail('type cannot be changed; create a new field instead');
  if (raw.multiple !== undefined && raw.multiple !== current.multiple) fail('multiple cannot be changed; create a new field instead');
  const fieldType = getFieldType(current.type);
  const slug = raw.id === undefined || raw.id === current.slug ? current.slug : checkSlug(raw.id, taken);
  const name = raw.name === undefined ? current.name : checkName(raw.name);
  const given = pickTypeSettings(raw, fieldType.settingKeys, fieldType.name);
  const settings = await fieldType.parseSettings({ ...current.settings, ...given }, ctx, current.settings);
  return { slug, name, type: current.type, multiple: current.multiple, ...checkCommonOptions(raw, current), settings };
}

/** The API shape of a field. */
export function presentField(field: FieldDraft) {
  return {
    id: field.slug,
    name: field.name,
    type: field.type,
    multiple: field.multiple,
    required: field.required,
    editable_by: field.editableBy,
    hidden: field.hidden,
    ...field.settings,
  };
}
