import { useState } from 'react';
import { Button } from '../ui/button';

/** A secret the server answers once (a generated password, a key): shown with a copy button and a warning. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <div className="shown-once" role="region" aria-label={label}>
      <p>
        <strong>{label}</strong> — shown this once; copy it now.
      </p>
      <code className="secret" data-testid="shown-once-value">
        {value}
      </code>
      <div className="row">
        <Button onPress={copy}>{copied ? 'Copied' : 'Copy'}</Button>
        <Button variant="quiet" onPress={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
