import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './button';

/** A question before something that cannot be undone from here; Esc or Cancel keeps things as they are. */
export function ConfirmDialog({ isOpen, title, message, confirmLabel, onConfirm, onCancel }: { isOpen: boolean; title: string; message: string; confirmLabel: string; onConfirm(): void; onCancel(): void }) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={isOpen} onOpenChange={(open) => !open && onCancel()} isDismissable>
      <Modal className="modal">
        <Dialog className="dialog" role="alertdialog">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <p className="dialog-body">{message}</p>
          <div className="dialog-actions">
            <Button onPress={onCancel}>Cancel</Button>
            <Button variant="danger" onPress={onConfirm} autoFocus>
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
