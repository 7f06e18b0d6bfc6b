import { Type } from '@fastify/type-provider-typebox';

export const Attachment = Type.Object({ name: Type.String(), path: Type.String(), type: Type.String(), size: Type.Integer(), host: Type.String() });
export const FieldFiles = Type.Object({ field_id: Type.String(), files: Type.Array(Attachment) });
export const FileContent = Type.Object({ name: Type.String(), type: Type.String(), size: Type.Integer(), data: Type.String({ description: 'the bytes, base64' }) });

/** Bodies are checked by the files service, which names the exact problem; `data` may arrive decoded by the body parser. */
export const FileCreateBody = Type.Object(
  {
    field_id: Type.Optional(Type.String({ description: 'slug of a file field' })),
    name: Type.Optional(Type.String()),
    type: Type.Optional(Type.String({ description: 'MIME type; sniffed from the bytes when omitted' })),
    data: Type.Optional(Type.Unknown({ description: 'the bytes, base64 (at most 50 MB decoded)' })),
  },
  { additionalProperties: true },
);
export const FileRefBody = Type.Object({ field_id: Type.Optional(Type.String()), path: Type.Optional(Type.String()) }, { additionalProperties: true });
export const UploadQuery = Type.Object({ field_id: Type.Optional(Type.String()), name: Type.Optional(Type.String()), type: Type.Optional(Type.String()) }, { additionalProperties: false });
export const DownloadQuery = Type.Object({ field_id: Type.Optional(Type.String()), path: Type.Optional(Type.String()) }, { additionalProperties: false });
