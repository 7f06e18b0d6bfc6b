import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, BodyId, documentedAs, Id } from '../../http/schemas.js';

export const SpaceParams = Type.Object({ sid: Id });
export const SpaceSummary = Type.Object({ id: Type.Integer(), name: Type.String(), account_id: Type.Integer() });
export const Space = Type.Object({ id: Type.Integer(), name: Type.String(), account_id: Type.Integer(), storage: AnyObject, created_at: Type.String() });

/** Checked by storage-settings.ts, which names the bad key (`Invalid storage.port: …`); the document shows every kind. */
const text = Type.String({ maxLength: 10_000 });
const port = Type.Integer({ minimum: 1, maximum: 65_535 });
const kind = <K extends string>(name: K, settings: Parameters<typeof Type.Object>[0] = {}) => Type.Object({ kind: Type.Literal(name), ...settings }, { additionalProperties: false });
const StorageSettings = Type.Union(
  [
    kind('managed'),
    kind('none'),
    kind('s3', { endpoint: Type.Optional(text), region: text, bucket: text, prefix: Type.Optional(text), access_key_id: text, secret_access_key: text }),
    kind('ftp', { host: text, port: Type.Optional(port), user: text, password: Type.Optional(text), secure: Type.Optional(Type.Boolean()), folder: Type.Optional(text) }),
    kind('sftp', { host: text, port: Type.Optional(port), username: text, password: Type.Optional(text), private_key: Type.Optional(text), folder: Type.Optional(text) }),
  ],
  { description: 'managed (default), none, or customer-owned S3, FTP or SFTP; credentials are stored encrypted and never returned; sftp needs password or private_key' },
);
const Storage = documentedAs(AnyObject, StorageSettings);
/** On update, secrets left out are kept when the kind stays the same (storage-settings.ts keepStoredSecrets). */
const StorageUpdate = documentedAs(
  AnyObject,
  Type.Union(
    [
      kind('managed'),
      kind('none'),
      kind('s3', { endpoint: Type.Optional(text), region: text, bucket: text, prefix: Type.Optional(text), access_key_id: Type.Optional(text), secret_access_key: Type.Optional(text) }),
      kind('ftp', { host: text, port: Type.Optional(port), user: text, password: Type.Optional(text), secure: Type.Optional(Type.Boolean()), folder: Type.Optional(text) }),
      kind('sftp', { host: text, port: Type.Optional(port), username: text, password: Type.Optional(Type.Union([text, Type.Null()])), private_key: Type.Optional(Type.Union([text, Type.Null()])), folder: Type.Optional(text) }),
    ],
    { description: 'as on create; a secret left out keeps the stored one when the kind stays the same (null drops it)' },
  ),
);
export const SpaceCreateBody = Type.Object({ name: Type.String({ maxLength: 200 }), storage: Type.Optional(Storage) }, { additionalProperties: false });
export const SpaceUpdateBody = Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })), storage: Type.Optional(StorageUpdate) }, { additionalProperties: false });
export const Member = Type.Object({ user_id: Type.Integer(), email: Type.String(), name: Type.String(), role: Type.String() });
/** An enum rather than a union of literals, so a bad role fails with "must be equal to one of the allowed values". */
export const Role = Type.Unsafe<'admin' | 'editor' | 'reader'>({ enum: ['admin', 'editor', 'reader'] });
export const MemberAddBody = Type.Object(
  { user_id: Type.Optional(BodyId), email: Type.Optional(Type.String({ maxLength: 320 })), role: Role },
  { additionalProperties: false },
);
export const MemberRemoveBody = Type.Object({ user_id: BodyId }, { additionalProperties: false });
