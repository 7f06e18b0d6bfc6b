import type { Field } from './field.js';
import { fieldTypeNames, getFieldType } from './registry.js';

type Hook = 'prefetch' | 'prepare' | 'afterCommit' | 'onRecordsDeleted' | 'onFieldDeleted';

/** The fields of a list whose type has each lifecycle hook. */
export type FieldHooks = Readonly<Record<Hook, readonly Field[]>>;

const hooks: readonly Hook[] = ['prefetch', 'prepare', 'afterCommit', 'onRecordsDeleted', 'onFieldDeleted'];
const known = new WeakMap<readonly Field[], FieldHooks>();

/**
 * Which fields of a list have which hook, worked out once per field list (lists live as long as
 * their cached metadata): a write, read or delete on a table without such fields checks four
 * empty arrays and nothing per record.
 */
export function hooksOf(fields: readonly Field[]): FieldHooks {
  let found = known.get(fields);
  if (!found) {
    const entries = hooks.map((hook) => [hook, fields.filter((field) => getFieldType(field.type)[hook] !== undefined)]);
    known.set(fields, (found = Object.fromEntries(entries) as FieldHooks));
  }
  return found;
}

/** Whether any registered type has the hook: a deletion lists fields to find them only then. */
export function someTypeHas(hook: Hook): boolean {
  return fieldTypeNames.some((name) => getFieldType(name)[hook] !== undefined);
}
