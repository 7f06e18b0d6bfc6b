import type { Field } from '../api/types';

export type LayoutType = 'grid' | 'kanban' | 'calendar' | 'gallery';
export const layoutTypes: { type: LayoutType; label: string }[] = [
  { type: 'grid', label: 'Grid' },
  { type: 'kanban', label: 'Kanban' },
  { type: 'calendar', label: 'Calendar' },
  { type: 'gallery', label: 'Gallery' },
];

/** A layout's config as the form edits it: keys of the specification's view config, '' when unset. */
export type LayoutConfig = Record<string, string>;

/** One setting of a layout's config (record-service-interface, "View config by type"). */
export interface LayoutSetting {
  key: string;
  label: string;
  /** The fields it may name; absent for a fixed list of choices. */
  fields?: (field: Field) => boolean;
  choices?: { value: string; label: string }[];
  optional?: boolean;
}

const anyField = () => true;

export const layoutSettings: Record<Exclude<LayoutType, 'grid'>, LayoutSetting[]> = {
  kanban: [
    { key: 'categoryField', label: 'Lane field', fields: (field) => field.type === 'select' && !field.multiple },
    { key: 'secondaryField', label: 'Card field', fields: anyField, optional: true },
  ],
  calendar: [
    { key: 'startField', label: 'Date field', fields: (field) => field.type === 'date' || field.type === 'datetime' },
    { key: 'endField', label: 'End field', fields: (field) => field.type === 'date' || field.type === 'datetime', optional: true },
    { key: 'colorField', label: 'Colour field', fields: (field) => field.type === 'select', optional: true },
    {
      key: 'mode',
      label: 'Opens on',
      choices: [
        { value: 'month', label: 'Month' },
        { value: 'week', label: 'Week' },
      ],
    },
    {
      key: 'weekStart',
      label: 'Week starts on',
      choices: [
        { value: 'monday', label: 'Monday' },
        { value: 'sunday', label: 'Sunday' },
        { value: 'saturday', label: 'Saturday' },
      ],
    },
  ],
  gallery: [
    { key: 'imageField', label: 'Image field', fields: (field) => field.type === 'file' },
    { key: 'secondaryField', label: 'Card field', fields: anyField, optional: true },
  ],
};

/**
 * A new layout's starting config: the first field that fits each required setting (none when
 * none fits: the server then says what is missing, on that setting).
 */
export function defaultConfig(type: LayoutType, fields: Field[]): LayoutConfig {
  if (type === 'grid') return {};
  const config: LayoutConfig = {};
  for (const setting of layoutSettings[type]) {
    if (setting.choices) config[setting.key] = setting.choices[0].value;
    else if (!setting.optional) config[setting.key] = fields.find((field) => setting.fields!(field))?.id ?? '';
    else config[setting.key] = '';
  }
  return config;
}

/** A saved view's config in the form's terms. */
export function configOfView(type: LayoutType, config: Record<string, unknown> | null | undefined): LayoutConfig {
  const form: LayoutConfig = {};
  if (type === 'grid') return form;
  for (const setting of layoutSettings[type]) {
    const value = config?.[setting.key];
    form[setting.key] = value === undefined || value === null ? '' : typeof value === 'number' ? (['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][value] ?? '') : String(value);
  }
  return form;
}

/** The config sent to the API: unset settings left out (a missing required one is the server's to name). */
export function configBody(config: LayoutConfig): Record<string, string> {
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== ''));
}

/** The setting a server refusal names (`Invalid config.<key>: …`), or 'type' for the config as a whole. */
export function configErrorKey(message: string): string | null {
  const named = /^Invalid config\.(\w+)/.exec(message);
  if (named) return named[1];
  return /^Invalid (config|type)\b/.test(message) ? 'type' : null;
}
