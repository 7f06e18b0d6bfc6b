import { useState, type ReactNode } from 'react';
import { Dialog, DialogTrigger, DropZone, FileTrigger, Heading, Modal, ModalOverlay, Text } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import type { Field, TableRecord } from '../api/types';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { FileThumbnail } from './file-thumbnail';
import { downloadUrl, isImage } from './file-urls';
import { PdfPreview } from './pdf-preview';
import { messageOf, useRecordChanged, type Attachment } from './record-api';
import { sizeLabel, uploadFile } from './upload';

interface Upload {
  key: string;
  name: string;
  fraction: number;
  error?: string;
}

/** A file field of the record: its files (image and PDF previews, download, delete) and uploads by drop or picker, with progress. */
export function RecordFiles({ tid, record, field, canWrite }: { tid: number; record: TableRecord; field: Field; canWrite: boolean }) {
  const files = (Array.isArray(record.data[field.id]) ? record.data[field.id] : []) as Attachment[];
  const changed = useRecordChanged(tid, record.id);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [deleting, setDeleting] = useState<Attachment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const patch = (key: string, change: Partial<Upload>) => setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));

  const send = async (chosen: File[]) => {
    setError(null);
    // One after another: each answer is the field's whole list, so the last one holds them all.
    for (const file of chosen) {
      const key = `${file.name}-${Math.random()}`;
      setUploads((list) => [...list, { key, name: file.name, fraction: 0 }]);
      try {
        const answer = await uploadFile(tid, record.id, field.id, file, (fraction) => patch(key, { fraction }));
        changed({ ...record, data: { ...record.data, [field.id]: answer.files } } as TableRecord);
        setUploads((list) => list.filter((upload) => upload.key !== key));
      } catch (caught) {
        patch(key, { error: messageOf(caught) });
      }
    }
  };
  const remove = async (file: Attachment) => {
    setDeleting(null);
    setError(null);
    try {
      const answer = await unwrap(api.POST('/api/table/{tid}/record/{rid}/files/delete', { params: { path: { tid, rid: record.id } }, body: { field_id: field.id, path: file.path } }));
      changed({ ...record, data: { ...record.data, [field.id]: (answer as { files: Attachment[] }).files } } as TableRecord);
    } catch (caught) {
      setError(messageOf(caught));
    }
  };

  return (
    <div className="record-files">
      {files.length === 0 && <p className="muted">No files</p>}
      <ul className="file-list" aria-label={`${field.name} files`}>
        {files.map((file) => (
          <li key={file.path} className="file-item">
            <FilePreview tid={tid} rid={record.id} fieldId={field.id} file={file} />
            <div className="file-meta">
              <span className="file-name">{file.name}</span>
              <span className="muted">{sizeLabel(file.size)}</span>
            </div>
            <div className="file-actions">
              <a className="button button-quiet" href={downloadUrl(tid, record.id, field.id, file.path)} download={file.name} aria-label={`Download ${file.name}`}>
                Download
              </a>
              {canWrite && (
                <Button variant="quiet" aria-label={`Delete ${file.name}`} onPress={() => setDeleting(file)}>
                  Delete
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {uploads.map((upload) => (
        <div key={upload.key} className="upload-row">
          <span>{upload.name}</span>
          {upload.error ? (
            <span className="field-error" role="alert">
              Could not upload {upload.name}: {upload.error}
            </span>
          ) : (
            <progress max={1} value={upload.fraction} aria-label={`Uploading ${upload.name}`} />
          )}
          {upload.error && (
            <Button variant="quiet" onPress={() => setUploads((list) => list.filter((item) => item.key !== upload.key))}>
              Dismiss
            </Button>
          )}
        </div>
      ))}
      {canWrite && (
        <DropZone
          className="drop-zone"
          aria-label={`Drop files into ${field.name}`}
          onDrop={async (event) => {
            const dropped = await Promise.all(event.items.filter((item) => item.kind === 'file').map((item) => (item as { getFile(): Promise<File> }).getFile()));
            void send(dropped);
          }}
        >
          <Text slot="label">Drop files here or</Text>
          <FileTrigger allowsMultiple onSelect={(list) => list && void send([...list])}>
            <Button variant="secondary">Choose files for {field.name}</Button>
          </FileTrigger>
        </DropZone>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <ConfirmDialog isOpen={deleting !== null} title="Delete this file?" message={deleting ? `${deleting.name} will be removed from ${field.name}.` : ''} confirmLabel="Delete file" onConfirm={() => deleting && void remove(deleting)} onCancel={() => setDeleting(null)} />
    </div>
  );
}

function FilePreview({ tid, rid, fieldId, file }: { tid: number; rid: number; fieldId: string; file: Attachment }) {
  const url = downloadUrl(tid, rid, fieldId, file.path);
  const icon = (label: string) => (
    <span className="file-preview file-icon" aria-hidden="true">
      {label}
    </span>
  );
  const extension = file.name.split('.').pop()?.slice(0, 4).toUpperCase() || 'FILE';
  if (isImage(file.type)) return <ImagePreview tid={tid} rid={rid} fieldId={fieldId} file={file} fallback={icon(extension)} />;
  if (file.type === 'application/pdf') return <PdfPreview url={url} name={file.name} />;
  return icon(extension);
}

/** An image's thumbnail; pressing it opens the full image (the download itself) in a dialog. */
function ImagePreview({ tid, rid, fieldId, file, fallback }: { tid: number; rid: number; fieldId: string; file: Attachment; fallback: ReactNode }) {
  return (
    <DialogTrigger>
      <Button variant="quiet" className="file-preview-button" aria-label={`Open ${file.name}`}>
        <FileThumbnail tid={tid} rid={rid} fieldId={fieldId} file={file} size={256} className="file-preview" alt={`Preview of ${file.name}`} fallback={fallback} />
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal modal-image">
          <Dialog className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title" className="dialog-title">
                  {file.name}
                </Heading>
                <img className="image-full" src={downloadUrl(tid, rid, fieldId, file.path)} alt={file.name} />
                <div className="dialog-actions">
                  <Button onPress={close} autoFocus>
                    Close
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
