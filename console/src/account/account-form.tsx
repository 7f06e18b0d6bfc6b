import { useState, type FormEvent, type ReactNode } from 'react';
import { FieldError, Form, Input, Label, TextField, type TextFieldProps } from 'react-aria-components';
import { fieldOfError } from './account-api';

/** A labelled input whose server error (by its `name`) is shown under it. */
export function AccountField({ label, description, ...props }: TextFieldProps & { label: string; description?: string }) {
  return (
    <TextField {...props} className="field">
      <Label className="field-label">{label}</Label>
      <Input className="input" />
      {description && <span className="field-hint">{description}</span>}
      <FieldError className="field-error" />
    </TextField>
  );
}

/**
 * A form whose server errors land next to the field they name (react-aria's validationErrors),
 * or under the form when they name none. `onSubmit` throws to keep the form as it is. ARIA
 * validation, not the browser's: a server error left on a field must never block the next submit.
 */
export function AccountForm({ children, onSubmit, errorCodes, className, label }: { children: ReactNode; onSubmit(form: FormData, element: HTMLFormElement): Promise<void>; errorCodes?: Record<string, string>; className?: string; label?: string }) {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    setBusy(true);
    setFieldErrors({});
    setFormError(null);
    try {
      await onSubmit(new FormData(element), element);
    } catch (caught) {
      const { field, message } = fieldOfError(caught, errorCodes);
      if (field && element.elements.namedItem(field)) setFieldErrors({ [field]: message });
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  };
  // A field's server error goes as the user edits it, not when it loses focus: a press on the
  // submit button would move under the pointer as the error's line disappears, and be lost.
  // (Input events bubble to this wrapper; react-aria's Form does not take onInput.)
  const clearEdited = (event: FormEvent<HTMLDivElement>) => {
    const name = (event.target as HTMLInputElement).name;
    if (name && fieldErrors[name]) setFieldErrors(({ [name]: _gone, ...rest }) => rest);
  };
  return (
    <div onInput={clearEdited}>
      <Form onSubmit={submit} validationErrors={fieldErrors} validationBehavior="aria" className={className ?? 'stack account-form'} aria-label={label} aria-busy={busy}>
        {children}
        {formError && (
          <p className="form-error" role="alert">
            {formError}
          </p>
        )}
      </Form>
    </div>
  );
}
