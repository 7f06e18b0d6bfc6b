import type { Field, TableRecord } from '../api/types';
import { displayValue } from '../grid/cell-value';
import { fileUrl, recordImage, recordTitle } from './layout-data';

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
 * A record's card: its first image (a lazily loaded `<img>` of the raw download route, fetched
 * by the browser only when the card is on screen), its title (opens the record) and fields.
 */
export function RecordCardBody({ tid, record, imageFields, shownFields, onOpen, imageClass }: RecordCardBodyProps) {
  const image = recordImage(record, imageFields);
  const title = recordTitle(record);
  return (
    <>
      {image ? <img className={imageClass} src={fileUrl(tid, record.id, image.field.id, image.file.path)} alt={image.file.name ?? ''} loading="lazy" decoding="async" /> : imageClass === 'gallery-image' ? <div className="gallery-image gallery-image-none">No image</div> : null}
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
