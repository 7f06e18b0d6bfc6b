import type { Field, TableRecord } from '../api/types';
import { displayValue } from '../grid/cell-value';
import { FileThumbnail } from '../record/file-thumbnail';
import { recordImage, recordTitle } from './layout-data';

interface RecordCardBodyProps {
  tid: number;
  record: TableRecord;
  /** File fields whose first image the card shows (the first that has one). */
  imageFields: Field[];
  /** The fields shown under the title (the view's `secondaryField`). */
  shownFields: Field[];
  onOpen(rid: number): void;
  /** Room for the image: kanban cards keep it small, gallery cards large. */
  imageClass: string;
}

/**
 * A record's card: its first image (the server's thumbnail in a lazily loaded `<img>`, fetched
 * by the browser only when the card is on screen), its title (opens the record) and fields.
 */
export function RecordCardBody({ tid, record, imageFields, shownFields, onOpen, imageClass }: RecordCardBodyProps) {
  const image = recordImage(record, imageFields);
  const title = recordTitle(record);
  // A gallery card keeps its image's room, saying why it is empty; a kanban card simply has none.
  const noImage = (text: string) => (imageClass === 'gallery-image' ? <div className="gallery-image gallery-image-none">{text}</div> : null);
  return (
    <>
      {image ? (
        <FileThumbnail tid={tid} rid={record.id} fieldId={image.field.id} file={image.file} size={256} className={imageClass} alt={image.file.name ?? ''} fallback={noImage('No preview')} />
      ) : (
        noImage('No image')
      )}
      <button type="button" className="card-title" onClick={() => onOpen(record.id)}>
        {title}
      </button>
      {shownFields.map((field) => {
        const text = displayValue(field, record.data[field.id]);
        return (
          <p key={field.id} className="card-field">
            <span className="card-field-name">{field.name}: </span>
            {text || '—'}
          </p>
        );
      })}
    </>
  );
}
