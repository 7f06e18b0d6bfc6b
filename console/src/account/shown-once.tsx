import { useState } from 'react';
import { Button } from '../ui/button';

/** A secret the server answers once (a generated password, a key): shown with a copy button and a warning. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone(): void }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed'); // no clipboard permission: the value stays selectable
    }
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
        <Button onPress={copy}>{copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed: select it' : 'Copy'}</Button>
        <Button variant="quiet" onPress={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
