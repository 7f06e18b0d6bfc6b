import { Input, Label, TextField, type TextFieldProps } from 'react-aria-components';

/** A labelled text input (react-aria's TextField ties the label to the input). */
export function TextInput({ label, ...props }: TextFieldProps & { label: string }) {
  return (
    <TextField {...props} className="field">
      <Label className="field-label">{label}</Label>
      <Input className="input" />
    </TextField>
  );
}
