import { useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ApiError } from '../api/client';
import { Button } from './button';

interface FormDialogProps {
  /** The label of the button that opens it ("New space"). */
  trigger: string;
  title: string;
  submitLabel: string;
  /** The fields; the form's data is read from their `name`s. */
  children: ReactNode;
  /** Throws to keep the dialog open with the error shown. */
  onSubmit(form: FormData): Promise<void>;
  triggerVariant?: 'primary' | 'secondary' | 'quiet';
}

/** A modal form (react-aria: focus trapped and restored, Esc closes) whose server errors stay visible in it. */
export function FormDialog({ trigger, title, submitLabel, children, onSubmit, triggerVariant = 'primary' }: FormDialogProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(new FormData(event.currentTarget));
      setOpen(false);
    } catch (caught) {
      setError(caught instanceof ApiError || caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setError(null);
      }}
    >
      <Button variant={triggerVariant}>{trigger}</Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog className="dialog">
            {({ close }) => (
              <form onSubmit={submit} noValidate>
                <Heading slot="title" className="dialog-title">
                  {title}
                </Heading>
                <div className="dialog-body">{children}</div>
                {error && (
                  <p className="form-error" role="alert">
                    {error}
                  </p>
                )}
                <div className="dialog-actions">
                  <Button onPress={close}>Cancel</Button>
                  <Button type="submit" variant="primary" isDisabled={busy}>
                    {submitLabel}
                  </Button>
                </div>
              </form>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
