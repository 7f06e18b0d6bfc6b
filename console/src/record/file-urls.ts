/**
 * The addresses of a record's file that the browser fetches itself (a link, a lazy `<img>`),
 * with the session cookie: the raw download and the server's thumbnails (files/thumbnail).
 */

/** The download address of a record's file (streamed). */
export function downloadUrl(tid: number, rid: number, fieldId: string, path: string): string {
  return `/api/table/${tid}/record/${rid}/files/download?${new URLSearchParams({ field_id: fieldId, path })}`;
}

/** The long sides, in pixels, of the thumbnails the server makes. */
export type ThumbnailSize = 64 | 256 | 512;

/** A WebP of at most `size` pixels on its long side, made and cached by the server. */
export function thumbnailUrl(tid: number, rid: number, fieldId: string, path: string, size: ThumbnailSize): string {
  return `/api/table/${tid}/record/${rid}/files/thumbnail?${new URLSearchParams({ field_id: fieldId, path, size: String(size) })}`;
}

/** Whether a file is shown as an image: any `image/*` type. */
export const isImage = (type: string | undefined) => type?.startsWith('image/') === true;

/** Images the server makes thumbnails of: all but SVG, which the browser scales itself at no cost. */
export const hasThumbnail = (type: string | undefined) => isImage(type) && !/^image\/svg\+xml\b/i.test(type!);
