import { Button as AriaButton, type ButtonProps } from 'react-aria-components';

/** react-aria's Button (press events, focus ring, disabled semantics) with the console's look. */
export function Button({ variant = 'secondary', className, ...props }: ButtonProps & { variant?: 'primary' | 'secondary' | 'danger' | 'quiet' }) {
  return <AriaButton {...props} className={`button button-${variant}${className ? ` ${className}` : ''}`} />;
}
