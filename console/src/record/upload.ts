import { ApiError } from '../api/client';
import type { Attachment } from './record-api';

/**
 * Sends one file as the raw body of `files/upload` (CONTRACT §8: a session says
 * `X-Tabula-Request: 1`). XMLHttpRequest, not fetch: only it reports upload progress.
 * The typed client cannot carry a raw body with progress, so this is the console's one
 * request outside it. Resolves with the field's attachments after the upload.
 */
export function uploadFile(tid: number, rid: number, fieldId: string, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<{ field_id: string; files: Attachment[] }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const query = new URLSearchParams({ field_id: fieldId, name: file.name });
    request.open('POST', `/api/table/${tid}/record/${rid}/files/upload?${query}`);
    request.withCredentials = true;
    request.setRequestHeader('X-Tabula-Request', '1');
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const body = request.response as { error?: { code: string; message: string } } | null;
      if (request.status >= 200 && request.status < 300) resolve(request.response as { field_id: string; files: Attachment[] });
      else reject(new ApiError(request.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `${request.status} ${request.statusText}`));
    };
    request.onerror = () => reject(new Error('The upload did not reach the server'));
    request.onabort = () => reject(new Error('Upload cancelled'));
    signal?.addEventListener('abort', () => request.abort());
    request.send(file);
  });
}

/** A file's bytes as base64 (the JSON routes' form: comments/upload). */
export function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}

/** Saves base64 bytes as a file named `name` (a comment's attachment, an e-mail's .eml). */
export function saveBase64(name: string, type: string, data: string): void {
  const bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
