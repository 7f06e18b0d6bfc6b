import { Type } from '@fastify/type-provider-typebox';
import { documentedAs } from '../../http/schemas.js';
import { thumbnailSizes } from './thumbnail-render.js';

export const Attachment = Type.Object({ name: Type.String(), path: Type.String(), type: Type.String(), size: Type.Integer(), host: Type.String() });
export const FieldFiles = Type.Object({ field_id: Type.String(), files: Type.Array(Attachment) });
export const FileContent = Type.Object({ name: Type.String(), type: Type.String(), size: Type.Integer(), data: Type.String({ description: 'the bytes, base64' }) });

/**
 * Bodies are checked by the files service, which names the exact problem (`Invalid parameters:
 * field_id is required`); `data` may arrive decoded by the body parser. Fastify checks only the
 * loose shape, the document shows the strict one.
 */
const slugOfFileField = Type.String({ minLength: 1, description: 'slug of a file field' });
export const FileCreateBody = documentedAs(
  Type.Object(
    {
      field_id: Type.Optional(Type.String({ description: 'slug of a file field' })),
      name: Type.Optional(Type.String()),
      type: Type.Optional(Type.String({ description: 'MIME type; sniffed from the bytes when omitted' })),
      data: Type.Optional(Type.Unknown({ description: 'the bytes, base64 (at most 50 MB decoded)' })),
    },
    { additionalProperties: true },
  ),
  Type.Object(
    {
      field_id: slugOfFileField,
      name: Type.String({ minLength: 1, description: 'file name shown and used in the path' }),
      type: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'MIME type; sniffed from the bytes when omitted' })),
      data: Type.String({ description: 'the bytes, base64 (at most 50 MB decoded)' }),
    },
    { additionalProperties: false },
  ),
);
export const FileRefBody = documentedAs(
  Type.Object({ field_id: Type.Optional(Type.String()), path: Type.Optional(Type.String()) }, { additionalProperties: true }),
  Type.Object({ field_id: slugOfFileField, path: Type.String({ minLength: 1, description: 'the attachment path, as read from the record' }) }, { additionalProperties: false }),
);
/** The raw upload's body is the file itself, in any content type; nothing validates it before the service streams it. */
export const UploadBody = documentedAs(Type.Unknown(), Type.Unsafe({ type: 'string', format: 'binary', description: 'the file itself (at most 50 MB)' }));
const fileBytes = { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
/** files/download answers the stored bytes under the file's own type; only its errors are JSON. */
export const DownloadResponses = {
  200: { description: 'The file, under its stored content type', ...fileBytes },
  206: { description: 'The requested byte range of the file', ...fileBytes },
  304: { description: 'Not modified: If-None-Match matched the ETag', type: 'null' },
};
export const UploadQuery = Type.Object({ field_id: Type.Optional(Type.String()), name: Type.Optional(Type.String()), type: Type.Optional(Type.String()) }, { additionalProperties: false });
export const DownloadQuery = Type.Object({ field_id: Type.Optional(Type.String()), path: Type.Optional(Type.String()) }, { additionalProperties: false });

/** files/thumbnail: the service checks the query (400 naming the sizes for another `size`); the document shows the strict shape. */
export const ThumbnailQuery = documentedAs(
  Type.Object({ field_id: Type.Optional(Type.String()), path: Type.Optional(Type.String()), size: Type.Optional(Type.String()) }, { additionalProperties: false }),
  Type.Object(
    {
      field_id: Type.String({ minLength: 1, description: 'slug of a file field', examples: ['photos'] }),
      path: Type.String({ minLength: 1, description: 'the attachment path, as read from the record', examples: ['/s1/3f2a9c0e5b7d41e8a6c2f0b9d8e7a615-harbour.jpg'] }),
      size: Type.Integer({ enum: [...thumbnailSizes], description: 'the long side in pixels (the image is never enlarged)', examples: [256] }),
    },
    { additionalProperties: false },
  ),
);
/** files/thumbnail answers a WebP; only its errors are JSON. */
export const ThumbnailResponses = {
  200: { description: 'The thumbnail: a WebP of at most `size` pixels on its long side', content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } } },
  304: { description: 'Not modified: If-None-Match matched the ETag', type: 'null' },
};
