import type { Field } from '../api/types';
import { layoutSettings, layoutTypes, type LayoutConfig, type LayoutType } from './layout-config';

interface LayoutConfigFieldsProps {
  /** Prefix of the inputs' ids (two forms may be on the page). */
  idPrefix: string;
  fields: Field[];
  type: LayoutType;
  config: LayoutConfig;
  /** When absent the layout is fixed (editing a saved view: its type stays). */
  onTypeChange?(type: LayoutType): void;
  onConfigChange(config: LayoutConfig): void;
  /** The server's refusal and the setting it names ('type' for the layout itself). */
  error?: { key: string; message: string } | null;
}

/** The layout select and its config's settings (lane field, date field, image field …); a server error sits on its setting. */
export function LayoutConfigFields({ idPrefix, fields, type, config, onTypeChange, onConfigChange, error }: LayoutConfigFieldsProps) {
  const errorOn = (key: string) => (error && error.key === key ? error.message : undefined);
  const invalidProps = (key: string) => {
    const message = errorOn(key);
    return message ? { 'aria-invalid': true as const, 'aria-describedby': `${idPrefix}-${key}-error` } : {};
  };
  const errorText = (key: string) =>
    errorOn(key) && (
      <span id={`${idPrefix}-${key}-error`} className="form-error" role="alert">
        {errorOn(key)}
      </span>
    );
  return (
    <>
      {onTypeChange && (
        <label className="view-control">
          <span>Layout</span>
          <select className="input" aria-label="Layout" value={type} onChange={(event) => onTypeChange(event.target.value as LayoutType)} {...invalidProps('type')}>
            {layoutTypes.map((layout) => (
              <option key={layout.type} value={layout.type}>
                {layout.label}
              </option>
            ))}
          </select>
          {errorText('type')}
        </label>
      )}
      {type !== 'grid' &&
        layoutSettings[type].map((setting) => (
          <label key={setting.key} className="view-control">
            <span>{setting.label}</span>
            <select className="input" aria-label={setting.label} value={config[setting.key] ?? ''} onChange={(event) => onConfigChange({ ...config, [setting.key]: event.target.value })} {...invalidProps(setting.key)}>
              {!setting.choices && <option value="">{setting.optional ? 'None' : 'Choose a field'}</option>}
              {setting.choices
                ? setting.choices.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))
                : fields.filter(setting.fields!).map((field) => (
                    <option key={field.id} value={field.id}>
                      {field.name}
                    </option>
                  ))}
            </select>
            {errorText(setting.key)}
          </label>
        ))}
    </>
  );
}
