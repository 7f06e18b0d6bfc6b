import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ApiError } from '../api/client';
import type { Field } from '../api/types';
import { Button } from '../ui/button';
import { updateViewConfig, viewsKey } from '../views-toolbar/views-api';
import type { SavedView } from '../views-toolbar/view-state';
import { configBody, configErrorKey, configOfView, type LayoutConfig, type LayoutType } from './layout-config';
import { LayoutConfigFields } from './layout-config-fields';

/** Edits a saved kanban, calendar or gallery view's config; the server's refusal stays on the setting it names. */
export function LayoutSettingsDialog({ tid, fields, view }: { tid: number; fields: Field[]; view: SavedView }) {
  const queryClient = useQueryClient();
  const type = view.type as LayoutType;
  const [open, setOpen] = useState(false);
  const [config, setConfig] = useState<LayoutConfig>(() => configOfView(type, view.config));
  const [error, setError] = useState<{ key: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await updateViewConfig(tid, view.id, configBody(config));
      await queryClient.invalidateQueries({ queryKey: viewsKey(tid) });
      setOpen(false);
    } catch (caught) {
      const message = caught instanceof ApiError || caught instanceof Error ? caught.message : String(caught);
      setError({ key: configErrorKey(message) ?? 'form', message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setConfig(configOfView(type, view.config));
          setError(null);
        }
      }}
    >
      <Button>Layout settings</Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog className="dialog">
            {({ close }) => (
              <form onSubmit={submit} noValidate>
                <Heading slot="title" className="dialog-title">
                  Layout settings of {view.name}
                </Heading>
                <div className="dialog-body">
                  <LayoutConfigFields idPrefix="edit-view" fields={fields} type={type} config={config} onConfigChange={setConfig} error={error} />
                </div>
                {error && (error.key === 'form' || error.key === 'type') && (
                  <p className="form-error" role="alert">
                    {error.message}
                  </p>
                )}
                <div className="dialog-actions">
                  <Button onPress={close}>Cancel</Button>
                  <Button type="submit" variant="primary" isDisabled={busy}>
                    Save layout
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
