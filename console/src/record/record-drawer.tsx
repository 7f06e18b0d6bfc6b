import { useEffect, useRef } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { Link, matchPath, useLocation, useSearchParams } from 'react-router';
import { Button } from '../ui/button';
import { RecordView } from './record-view';
import './record.css';

/** The search parameter every view sets to open a record over itself: `?record=<rid>`. */
export const recordParam = 'record';

/** The address of a view with a record open over it (other search parameters kept). */
export function withRecord(search: URLSearchParams, rid: number): string {
  const next = new URLSearchParams(search);
  next.set(recordParam, String(rid));
  return `?${next}`;
}

/**
 * The record drawer over any page of a table (grid, views, other layouts): shown while the
 * address carries `?record=<rid>`. A modal dialog labelled by the record's title; Esc or Close
 * drops the parameter, and focus goes back where it was (react-aria's Modal restores it).
 */
export function RecordDrawer() {
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const match = matchPath('/space/:sid/table/:tid/*', location.pathname);
  const rid = Number(search.get(recordParam) ?? 0);
  const open = !!match && rid > 0 && !match.params['*']?.startsWith('record/');
  // What had the focus when the drawer opened (a grid row, a card) gets it back on closing: the
  // drawer leaves the tree at once when the address changes, before react-aria could restore it.
  // The focus moves back once the drawer has left (and the page is no longer inert), after the commit.
  const openedFrom = useRef<Element | null>(null);
  const restoreTo = useRef<Element | null>(null);
  if (open && !openedFrom.current) openedFrom.current = document.activeElement;
  useEffect(() => {
    if (open || !restoreTo.current) return;
    const back = restoreTo.current;
    restoreTo.current = null;
    if (back instanceof HTMLElement && back.isConnected) back.focus({ preventScroll: true });
  });
  if (!open) {
    openedFrom.current = null;
    return null;
  }
  const sid = Number(match!.params.sid);
  const tid = Number(match!.params.tid);
  const close = () => {
    restoreTo.current = openedFrom.current;
    setSearch((current) => {
      const next = new URLSearchParams(current);
      next.delete(recordParam);
      next.delete('comment');
      return next;
    });
  };
  const headingId = `record-drawer-title-${rid}`;
  return (
    <ModalOverlay className="drawer-overlay" isOpen isDismissable onOpenChange={(open) => !open && close()}>
      <Modal className="drawer">
        <Dialog className="drawer-dialog" aria-labelledby={headingId}>
          <RecordView
            sid={sid}
            tid={tid}
            rid={rid}
            headingId={headingId}
            focusComment={Number(search.get('comment') ?? 0) || undefined}
            actions={
              <>
                <Link className="button button-quiet" to={`/space/${sid}/table/${tid}/record/${rid}`}>
                  Open as page
                </Link>
                <Button variant="secondary" onPress={close}>
                  Close
                </Button>
              </>
            }
          />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
