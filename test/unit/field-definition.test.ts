import { describe, expect, it } from 'vitest';
import type { SettingsContext } from '../../src/modules/fields/field-type.js';
import {
  checkSlug,
  parseFieldDefinition,
  parseFieldUpdate,
  presentField,
  reservedSlugs,
  slugify,
  uniqueSlug,
} from '../../src/modules/fields/field-definition.js';
import type { Field } from '../../src/modules/fields/field.js';
import { buildField } from '../field-builder.js';

/** Tables 7 and 8 are visible to the caller; nothing else is. */
const ctx: SettingsContext = { accountId: 1, isVisibleTable: async (tableId) => tableId === 7 || tableId === 8 };
const none = new Set<string>();

const parse = (definition: unknown, taken: ReadonlySet<string> = none, claimed?: ReadonlySet<string>) => parseFieldDefinition(definition, taken, ctx, claimed);

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; code: string; message: string };
  }
  throw new Error('expected a rejection');
}

describe('slugify', () => {
  it.each([
    ['Email Address', 'email_address'],
    ['  Email   Address  ', 'email_address'],
    ['Crème Brûlée', 'creme_brulee'],
    ['Ångström Ñandú', 'angstrom_nandu'],
    ['ﬁle', 'file'],
    ['Price (€) / unit', 'price_unit'],
    ['already_snake', 'already_snake'],
    ['CamelCase', 'camelcase'],
    ['2nd Place', 'f_2nd_place'],
    ['123', 'f_123'],
    ['_leading underscore_', 'leading_underscore'],
  ])('turns %j into %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('falls back to "field" when nothing of the name survives', () => {
    expect(slugify('日本語')).toBe('field');
    expect(slugify('!!!')).toBe('field');
    expect(slugify('')).toBe('field');
  });

  it('keeps slugs short enough for a de-duplication suffix', () => {
    const slug = slugify('x'.repeat(300));
    expect(slug).toBe('x'.repeat(56));
    expect(slugify(`9${'y'.repeat(300)}`).length).toBeLessThanOrEqual(58);
  });

  it('always produces a valid slug', () => {
    for (const name of ['Email Address', '2nd', '日本語', 'x'.repeat(300), '9'.repeat(300), 'É', 'a-b-c']) {
      expect(slugify(name)).toMatch(/^[a-z][a-z0-9_]{0,62}$/);
    }
  });
});

describe('uniqueSlug', () => {
  it('uses the plain slug when it is free', () => {
    expect(uniqueSlug('Name', new Set(['other']))).toBe('name');
  });

  it('appends _2, _3, … past the slugs already taken', () => {
    expect(uniqueSlug('Name', new Set(['name']))).toBe('name_2');
    expect(uniqueSlug('Name', new Set(['name', 'name_2', 'name_3']))).toBe('name_4');
  });

  it.each(['Title', 'ID', 'Created At', 'updated at'])('steps around the reserved slug made from %j', (name) => {
    expect(uniqueSlug(name, none)).toBe(`${slugify(name)}_2`);
  });

  it('stays within 63 characters with a suffix on the longest base', () => {
    const slug = uniqueSlug('z'.repeat(100), new Set(['z'.repeat(56)]));
    expect(slug).toBe(`${'z'.repeat(56)}_2`);
    expect(slug).toMatch(/^[a-z][a-z0-9_]{0,62}$/);
  });
});

describe('checkSlug', () => {
  it.each(['a', 'email', 'a1_b2', `a${'b'.repeat(62)}`])('accepts %j', (slug) => {
    expect(checkSlug(slug, none)).toBe(slug);
  });

  it.each([
    [''],
    ['1abc'],
    ['_abc'],
    ['Abc'],
    ['ab-c'],
    ['ab c'],
    ['émail'],
    [`a${'b'.repeat(63)}`],
    [5],
    [null],
    [['a']],
  ])('rejects %j with a 400 quoting the pattern', (slug) => {
    expect(() => checkSlug(slug, none)).toThrow(/Invalid field definition: id must match \^\[a-z\]\[a-z0-9_\]\{0,62\}\$/);
  });

  it.each([...reservedSlugs])('rejects the reserved slug %j', (slug) => {
    expect(() => checkSlug(slug, none)).toThrow(`Invalid field definition: id "${slug}" is reserved`);
  });

  it('rejects a slug already used in the table', () => {
    expect(() => checkSlug('email', new Set(['email']))).toThrow('Invalid field definition: id "email" is already used in this table');
  });
});

describe('parseFieldDefinition', () => {
  it('fills the defaults of a minimal text field and generates its slug', async () => {
    const draft = await parse({ name: 'Email Address', type: 'text' });
    expect(draft).toEqual({ slug: 'email_address', name: 'Email Address', type: 'text', multiple: false, required: false, editableBy: 'members', hidden: null, settings: {} });
  });

  it('trims the name', async () => {
    expect((await parse({ name: '  Notes  ', type: 'longtext' })).name).toBe('Notes');
  });

  it('keeps an explicit id', async () => {
    expect((await parse({ id: 'mail', name: 'Email Address', type: 'email' })).slug).toBe('mail');
  });

  it('de-duplicates a generated slug against the table and against ids claimed later in the request', async () => {
    expect((await parse({ name: 'Name', type: 'text' }, new Set(['name']))).slug).toBe('name_2');
    expect((await parse({ name: 'Name', type: 'text' }, none, new Set(['name']))).slug).toBe('name_2');
    expect((await parse({ name: 'Title', type: 'text' })).slug).toBe('title_2');
  });

  it('accepts every common option', async () => {
    const draft = await parse({ name: 'Status', type: 'text', required: true, editable_by: 'admins', hidden: 'always' });
    expect(draft).toMatchObject({ required: true, editableBy: 'admins', hidden: 'always' });
    expect((await parse({ name: 'Locked', type: 'text', editable_by: 'none', hidden: null })).editableBy).toBe('none');
  });

  it('parses the settings of every typed field', async () => {
    expect((await parse({ name: 'Price', type: 'number', decimals: 2 })).settings).toEqual({ decimals: 2 });
    expect((await parse({ name: 'Price', type: 'number' })).settings).toEqual({ decimals: null });
    expect((await parse({ name: 'Tags', type: 'select', multiple: true, options: [{ value: 'a', color: 'red' }, { value: 'b' }] })).settings).toEqual({
      options: [{ value: 'a', color: 'red' }, { value: 'b' }],
    });
    expect((await parse({ name: 'Company', type: 'lookup', table_id: 7 })).settings).toEqual({ table_id: 7 });
    expect((await parse({ name: 'Photos', type: 'file', image_only: true })).settings).toEqual({ image_only: true });
    expect((await parse({ name: 'Files', type: 'file' })).settings).toEqual({ image_only: false });
  });

  it('makes file fields always multiple and the others single unless asked', async () => {
    expect((await parse({ name: 'Files', type: 'file' })).multiple).toBe(true);
    expect((await parse({ name: 'Files', type: 'file', multiple: true })).multiple).toBe(true);
    expect((await parse({ name: 'Owner', type: 'user' })).multiple).toBe(false);
    expect((await parse({ name: 'Owners', type: 'user', multiple: true })).multiple).toBe(true);
  });

  it.each([
    [null, /must be an object/],
    [[], /must be an object/],
    ['text', /must be an object/],
    [{ type: 'text' }, /name must be a string/],
    [{ name: 5, type: 'text' }, /name must be a string/],
    [{ name: '   ', type: 'text' }, /name must be 1 to 200 characters/],
    [{ name: 'x'.repeat(201), type: 'text' }, /name must be 1 to 200 characters/],
    [{ name: 'a\u0000b', type: 'text' }, /name must not contain NUL characters/],
    [{ name: 'a\ud800b', type: 'text' }, /name must not contain unpaired surrogate/],
    [{ name: 'X' }, /type is required/],
    [{ name: 'X', type: 'string' }, /Invalid field type: "string"/],
    [{ name: 'X', type: 'text', colour: 'red' }, /unknown property "colour"/],
    [{ name: 'X', type: 'text', options: [] }, /options does not apply to text fields/],
    [{ name: 'X', type: 'select', decimals: 2 }, /decimals does not apply to select fields/],
    [{ name: 'X', type: 'number', table_id: 7 }, /table_id does not apply to number fields/],
    [{ name: 'X', type: 'lookup', table_id: 7, image_only: true }, /image_only does not apply to lookup fields/],
    [{ name: 'X', type: 'text', multiple: true }, /text fields cannot be multiple/],
    [{ name: 'X', type: 'file', multiple: false }, /file fields are always multiple/],
    [{ name: 'X', type: 'select', multiple: 'yes' }, /multiple must be a boolean/],
    [{ name: 'X', type: 'number', decimals: 11 }, /decimals/],
    [{ name: 'X', type: 'number', decimals: -1 }, /decimals/],
    [{ name: 'X', type: 'number', decimals: 1.5 }, /decimals/],
    [{ name: 'X', type: 'number', decimals: '2' }, /decimals/],
    [{ name: 'X', type: 'select', options: 'a,b' }, /options must be an array/],
    [{ name: 'X', type: 'select', options: [{ value: 'a' }, { value: 'a' }] }, /duplicate option "a"/],
    [{ name: 'X', type: 'select', options: [{ value: 'a,b' }] }, /options\[0\]\.value must not contain a comma/],
    [{ name: 'X', type: 'select', options: [{ value: 'a', label: 'A' }] }, /options\[0\] has unknown property "label"/],
    [{ name: 'X', type: 'select', options: ['a'] }, /options\[0\] must be an object/],
    [{ name: 'X', type: 'lookup' }, /table_id is required/],
    [{ name: 'X', type: 'lookup', table_id: 99 }, /table_id 99 is not a table of this account/],
    [{ name: 'X', type: 'lookup', table_id: 0 }, /table_id 0 is not a table of this account/],
    [{ name: 'X', type: 'lookup', table_id: 2_147_483_648 }, /table_id 2147483648 is not a table of this account/],
    [{ name: 'X', type: 'lookup', table_id: 1e20 }, /is not a table of this account/],
    [{ name: 'X', type: 'lookup', table_id: '7' }, /table_id is required/],
    [{ name: 'X', type: 'select', options: [{ value: 'a\u0000' }] }, /options\[0\]\.value must not contain NUL/],
    [{ name: 'X', type: 'select', options: [{ value: ' a' }] }, /options\[0\]\.value must not start or end with spaces/],
    [{ name: 'X', type: 'select', options: [{ value: '' }] }, /options\[0\]\.value must be a non-empty string/],
    [{ name: 'X', type: 'select', options: [{ value: 'a', color: 'url(javascript:x)' }] }, /options\[0\]\.color must be a color string/],
    [{ name: 'X', type: 'file', image_only: 'yes' }, /image_only must be a boolean/],
    [{ name: 'X', type: 'text', editable_by: 'everyone' }, /editable_by must be members, admins or none/],
    [{ name: 'X', type: 'text', editable_by: null }, /editable_by must be members, admins or none/],
    [{ name: 'X', type: 'text', hidden: 'never' }, /hidden must be "always" or null/],
    [{ name: 'X', type: 'text', hidden: true }, /hidden must be "always" or null/],
    [{ name: 'X', type: 'text', required: 'yes' }, /required must be a boolean/],
    [{ name: 'X', type: 'text', required: null }, /required must be a boolean/],
    [{ id: 'Bad Id', name: 'X', type: 'text' }, /id must match/],
    [{ id: 'created_at', name: 'X', type: 'text' }, /id "created_at" is reserved/],
  ])('rejects %j', async (definition, message) => {
    const error = await rejection(parse(definition));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_field_definition');
    expect(error.message).toMatch(/^Invalid field (definition|type)/);
    expect(error.message).toMatch(message);
  });
});

describe('parseFieldUpdate', () => {
  const update = (current: Field, changes: unknown, taken: ReadonlySet<string> = none) => parseFieldUpdate(changes, current, taken, ctx);

  it('keeps everything not given', async () => {
    const current = buildField({ slug: 'status', name: 'Status', required: true, editableBy: 'admins', hidden: 'always' });
    expect(await update(current, {})).toEqual({ slug: 'status', name: 'Status', type: 'text', multiple: false, required: true, editableBy: 'admins', hidden: 'always', settings: {} });
  });

  it('renames the slug and the name, and resets hidden with null', async () => {
    const draft = await update(buildField({ hidden: 'always' }), { id: 'renamed', name: 'Renamed', hidden: null });
    expect(draft).toMatchObject({ slug: 'renamed', name: 'Renamed', hidden: null });
  });

  it('accepts the unchanged type and multiple', async () => {
    const current = buildField({ type: 'select', multiple: true, settings: { options: [] } });
    expect((await update(current, { type: 'select', multiple: true })).multiple).toBe(true);
  });

  it('merges new settings over the current ones', async () => {
    const current = buildField({ type: 'select', settings: { options: [{ value: 'a' }] } });
    expect((await update(current, { options: [{ value: 'b', color: 'blue' }] })).settings).toEqual({ options: [{ value: 'b', color: 'blue' }] });
    expect((await update(buildField({ type: 'number', settings: { decimals: 2 } }), { decimals: null })).settings).toEqual({ decimals: null });
  });

  it('leaves a lookup field editable once its target table is gone', async () => {
    const current = buildField({ type: 'lookup', settings: { table_id: 99 } });
    expect((await update(current, { name: 'Company' })).settings).toEqual({ table_id: 99 });
  });

  it.each([
    [{ type: 'number' }, /type cannot be changed/],
    [{ multiple: true }, /multiple cannot be changed/],
    [{ id: 'taken' }, /id "taken" is already used/],
    [{ id: 'title' }, /id "title" is reserved/],
    [{ id: '9lives' }, /id must match/],
    [{ name: '' }, /name must be 1 to 200 characters/],
    [{ decimals: 2 }, /decimals does not apply to text fields/],
    [{ surprise: 1 }, /unknown property "surprise"/],
    [{ required: 1 }, /required must be a boolean/],
  ])('rejects %j', async (changes, message) => {
    const error = await rejection(update(buildField(), changes, new Set(['taken'])));
    expect(error.code).toBe('invalid_field_definition');
    expect(error.message).toMatch(message);
  });

  it('refuses to retarget a lookup field', async () => {
    const error = await rejection(update(buildField({ type: 'lookup', settings: { table_id: 7 } }), { table_id: 8 }));
    expect(error.message).toMatch(/table_id of a lookup field cannot be changed/);
  });
});

describe('presentField', () => {
  it('spells a draft the way the API shows it', () => {
    const shown = presentField({ slug: 'tags', name: 'Tags', type: 'select', multiple: true, required: false, editableBy: 'admins', hidden: null, settings: { options: [{ value: 'a' }] } });
    expect(shown).toEqual({ id: 'tags', name: 'Tags', type: 'select', multiple: true, required: false, editable_by: 'admins', hidden: null, options: [{ value: 'a' }] });
  });
});
