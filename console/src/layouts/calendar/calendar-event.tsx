import { useState } from 'react';
import { Dialog, DialogTrigger, Heading, Popover, useDrag } from 'react-aria-components';
import type { TableRecord } from '../../api/types';
import { Button } from '../../ui/button';
import { recordDragType, recordTitle } from '../layout-data';

interface CalendarEventProps {
  record: TableRecord;
  /** The day the event starts (`YYYY-MM-DD`): what the reschedule form starts with. */
  day: string;
  color?: string;
  onOpen(rid: number): void;
  /** Absent for a user who may not change the dates: the event neither drags nor offers "Move". */
  onReschedule?(record: TableRecord, toDay: string): Promise<void>;
}

/** An event on its day: its title opens the record; dragged onto another day, or "Move" from the keyboard, it is rescheduled. */
export function CalendarEvent({ record, day, color, onOpen, onReschedule }: CalendarEventProps) {
  const title = recordTitle(record);
  const { dragProps, isDragging } = useDrag({ getItems: () => [{ [recordDragType]: String(record.id), 'text/plain': title }], hasDragButton: true, isDisabled: !onReschedule });
  return (
    <li {...dragProps} className={`calendar-event${isDragging ? ' is-dragging' : ''}`} style={color ? { borderLeftColor: color } : undefined} data-record-id={record.id}>
      <button type="button" className="calendar-event-title" onClick={() => onOpen(record.id)}>
        {title}
      </button>
      {onReschedule && <RescheduleButton title={title} day={day} onSave={(toDay) => onReschedule(record, toDay)} />}
    </li>
  );
}

/** The keyboard's way to reschedule: a date picked in a small dialog. */
function RescheduleButton({ title, day, onSave }: { title: string; day: string; onSave(toDay: string): Promise<void> }) {
  const [value, setValue] = useState(day);
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setValue(day);
      }}
    >
      <Button variant="quiet" className="calendar-event-move" aria-label={`Reschedule ${title}`}>
        ⇢
      </Button>
      <Popover className="popover" placement="bottom start">
        <Dialog className="dialog calendar-reschedule" aria-label={`Reschedule ${title}`}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return;
              setOpen(false);
              void onSave(value);
            }}
          >
            <Heading slot="title" className="dialog-title">
              Reschedule {title}
            </Heading>
            <label className="view-control">
              <span>New date</span>
              <input className="input" type="date" value={value} onChange={(event) => setValue(event.target.value)} required />
            </label>
            <div className="dialog-actions">
              <Button onPress={() => setOpen(false)}>Cancel</Button>
              <Button type="submit" variant="primary">
                Move
              </Button>
            </div>
          </form>
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
