/**
 * The name and one-line summary of every operation in the OpenAPI document, keyed by
 * `METHOD path` exactly as the route is registered (Fastify's `:param` syntax). http/openapi.ts
 * applies them when the document is built; routes stay as they are, and one table shows the
 * whole API's vocabulary at a glance. test/http/openapi.test.ts fails for any registered route
 * without an entry here, and for any entry without a route, so a new route cannot ship
 * undocumented. `operationId` is the method name of the generated client
 * (clients/typescript): a verb, then the thing, camelCase, unique.
 */
export interface OperationDescription {
  operationId: string;
  summary: string;
  /** Answered to a logged-in session only: API keys get 403 `API endpoint not available to API keys`. */
  sessionOnly?: true;
}

export const operations: Readonly<Record<string, OperationDescription>> = {
  'GET /healthz': { operationId: 'getHealth', summary: 'Tell whether the process is up (no authentication, never rate limited)' },
  'GET /readyz': { operationId: 'getReadiness', summary: 'Tell whether this process should get traffic: database answering, migrations applied, not stopping (no authentication)' },
  'GET /api/openapi.json': { operationId: 'getOpenApiDocument', summary: 'This OpenAPI document (no authentication, never rate limited)' },

  'POST /api/auth/login': { operationId: 'login', summary: 'Log in with email and password; sets the tabula_session cookie' },
  'POST /api/auth/logout': { operationId: 'logout', summary: 'End the session of the tabula_session cookie and clear it' },
  'GET /api/auth/me': { operationId: 'getCurrentUser', summary: 'The user the key or session acts as' },
  'POST /api/auth/password': { operationId: 'changePassword', summary: "Change the session user's password; the user's other sessions end", sessionOnly: true },

  'GET /api/users/list': { operationId: 'listUsers', summary: 'List the users of the account' },
  'POST /api/users/create': { operationId: 'createUser', summary: 'Add a user to the account; a generated password is shown once (owner)' },

  'GET /api/keys/list': { operationId: 'listKeys', summary: "List the account's keys (owner), or the caller's own personal keys; never a secret" },
  'POST /api/keys/create': { operationId: 'createKey', summary: 'Create an API key; its secret is shown once (owner: any key; a user: own personal keys)' },
  'POST /api/key/:id/revoke': { operationId: 'revokeKey', summary: 'Revoke an API key: it answers 401 from then on (owner: any key; a user: own)' },

  'GET /api/spaces/list': { operationId: 'listSpaces', summary: 'List the spaces the caller can see' },
  'POST /api/spaces/create': { operationId: 'createSpace', summary: "Create a space (unrestricted account key, or the owner's session)" },
  'GET /api/space/:sid/get': { operationId: 'getSpace', summary: 'Get a space, its storage settings without secrets' },
  'POST /api/space/:sid/update': { operationId: 'updateSpace', summary: "Rename a space or change its file storage (unrestricted account key, or the owner's session)" },
  'POST /api/space/:sid/delete': { operationId: 'deleteSpace', summary: "Delete a space with its tables, records and comments (unrestricted account key, or the owner's session)" },
  'GET /api/space/:sid/members/list': { operationId: 'listMembers', summary: 'List the members of a space and their roles' },
  'POST /api/space/:sid/members/add': { operationId: 'addMember', summary: "Add a user to a space, or change a member's role (account key, or the owner's session)" },
  'POST /api/space/:sid/members/remove': { operationId: 'removeMember', summary: "Remove a member from a space (account key, or the owner's session)" },

  'GET /api/space/:sid/tables/list': { operationId: 'listTables', summary: 'List the tables of a space' },
  'POST /api/space/:sid/tables/create': { operationId: 'createTable', summary: 'Create a table with its fields (account key or space admin)' },
  'GET /api/table/:tid/get': { operationId: 'getTable', summary: 'Get a table: its fields, title field and indexes' },
  'POST /api/table/:tid/update': { operationId: 'updateTable', summary: 'Rename a table or change its title field (account key or space admin)' },
  'POST /api/table/:tid/delete': { operationId: 'deleteTable', summary: 'Delete a table with its records and comments (account key or space admin)' },
  'POST /api/table/:tid/fields/create': { operationId: 'createField', summary: 'Add a field to a table (account key or space admin)' },
  'POST /api/table/:tid/field/:slug/update': { operationId: 'updateField', summary: 'Change a field: name, slug, options, permissions (account key or space admin)' },
  'POST /api/table/:tid/field/:slug/delete': { operationId: 'deleteField', summary: 'Delete a field and its values (account key or space admin)' },
  'GET /api/table/:tid/indexes/list': { operationId: 'listIndexes', summary: 'List the indexes of a table with their origin' },
  'POST /api/table/:tid/indexes/create': { operationId: 'createIndex', summary: 'Create an index on fields of a table (account key or space admin)' },
  'POST /api/table/:tid/index/:name/delete': { operationId: 'deleteIndex', summary: 'Delete an index of a table (account key or space admin)' },

  'POST /api/table/:tid/records/create': { operationId: 'createRecord', summary: 'Create a record' },
  'GET /api/table/:tid/record/:rid/get': { operationId: 'getRecord', summary: 'Get a record' },
  'POST /api/table/:tid/record/:rid/update': { operationId: 'updateRecord', summary: 'Change the given fields of a record' },
  'POST /api/table/:tid/record/:rid/delete': { operationId: 'deleteRecord', summary: 'Delete a record' },
  'POST /api/table/:tid/records/query': { operationId: 'queryRecords', summary: 'Find records: filters, search, order, paging, a saved view' },
  'POST /api/table/:tid/records/export': { operationId: 'exportRecords', summary: 'Every matching record as a streamed CSV or JSON file' },
  'POST /api/table/:tid/records/count': { operationId: 'countRecords', summary: 'Count the records a query matches, and all records of the table' },
  'POST /api/table/:tid/records/ids': { operationId: 'listRecordIds', summary: 'Every id a query matches, in its order (no limit)' },
  'POST /api/table/:tid/records/delete_batch': { operationId: 'deleteRecords', summary: 'Delete up to 1000 records by id' },
  'POST /api/table/:tid/records/trash': { operationId: 'listTrash', summary: 'Deleted records in the trash (30 days), newest first' },
  'POST /api/table/:tid/records/restore': { operationId: 'restoreRecords', summary: 'Bring records back from the trash, with their ids, values, files and comments' },
  'GET /api/table/:tid/changes/stream': { operationId: 'streamTableChanges', summary: "The table's changes as Server-Sent Events, resumable with Last-Event-ID" },
  'GET /api/space/:sid/changes/stream': { operationId: 'streamSpaceChanges', summary: 'Changes of every table of the space the caller can read, as Server-Sent Events' },
  'POST /api/table/:tid/changes/list': { operationId: 'listChanges', summary: "The table's changes after a seq, in commit order (polling)" },
  'POST /api/table/:tid/record/:rid/history': { operationId: 'recordHistory', summary: "A record's changes (its comments' included), newest first" },
  'POST /api/table/:tid/records/create_batch': { operationId: 'createRecords', summary: 'Create up to 1000 records at once, all or nothing' },
  'POST /api/table/:tid/records/validate_batch': { operationId: 'validateRecords', summary: 'Check up to 1000 records as create_batch would, writing nothing: every refusal, by index' },
  'POST /api/table/:tid/records/update_batch': { operationId: 'updateRecords', summary: 'Change up to 1000 records at once, all or nothing' },
  'POST /api/table/:tid/records/upsert_batch': { operationId: 'upsertRecords', summary: 'Create or change up to 1000 records matched on fields, all or nothing' },

  'POST /api/table/:tid/record/:rid/files/create': { operationId: 'createFile', summary: 'Attach a file sent as base64 to a file field of a record' },
  'POST /api/table/:tid/record/:rid/files/upload': { operationId: 'uploadFile', summary: 'Attach a file sent as the raw request body (streamed)' },
  'POST /api/table/:tid/record/:rid/files/get': { operationId: 'getFile', summary: 'Read an attached file as base64' },
  'GET /api/table/:tid/record/:rid/files/download': { operationId: 'downloadFile', summary: 'Download an attached file as bytes (ranges, ETag)' },
  'GET /api/table/:tid/record/:rid/files/thumbnail': { operationId: 'getFileThumbnail', summary: 'A WebP thumbnail of an attached image, 64, 256 or 512 px on its long side (cached, ETag)' },
  'POST /api/table/:tid/record/:rid/files/delete': { operationId: 'deleteFile', summary: 'Remove an attachment from a file field of a record' },

  'GET /api/table/:tid/views/list': { operationId: 'listViews', summary: 'List the saved views of a table' },
  'GET /api/table/:tid/view/:vid/get': { operationId: 'getView', summary: 'Get a saved view (id 0: the default grid)' },
  'POST /api/table/:tid/views/create': { operationId: 'createView', summary: 'Create a saved view (session of a space admin)', sessionOnly: true },
  'POST /api/table/:tid/view/:vid/update': { operationId: 'updateView', summary: 'Change a saved view (session of a space admin)', sessionOnly: true },
  'POST /api/table/:tid/view/:vid/delete': { operationId: 'deleteView', summary: 'Delete a saved view (session of a space admin)', sessionOnly: true },

  'GET /api/table/:tid/record/:rid/comments/get': { operationId: 'listComments', summary: 'List the comments of a record, oldest first' },
  'POST /api/table/:tid/record/:rid/comments/create': { operationId: 'createComment', summary: 'Comment on a record; mentions notify the users named' },
  'POST /api/table/:tid/record/:rid/comments/createEmailComment': { operationId: 'createEmailComment', summary: 'Record an incoming e-mail as a comment, archived as .eml' },
  'POST /api/table/:tid/record/:rid/comments/upload': { operationId: 'uploadCommentFile', summary: 'Store a file for a comment to come (attach it with createComment within the hour)' },
  'POST /api/table/:tid/record/:rid/comments/files/get': { operationId: 'getCommentFile', summary: 'Read a file of a comment as base64' },
  'POST /api/table/:tid/record/:rid/comment/:cid/update': { operationId: 'updateComment', summary: 'Edit your own comment' },
  'POST /api/table/:tid/record/:rid/comment/:cid/delete': { operationId: 'deleteComment', summary: 'Delete your own comment' },

  'POST /api/notifications/list': { operationId: 'listNotifications', summary: "The caller's notifications, newest first (personal key or session)" },
  'POST /api/notifications/:id/markRead': { operationId: 'markNotificationRead', summary: 'Mark one notification read' },
  'POST /api/notifications/markAllRead': { operationId: 'markAllNotificationsRead', summary: "Mark all the caller's notifications read" },
  'POST /api/subscriptions/:tid/:rid/subscribe': { operationId: 'subscribe', summary: 'Follow a record (record id 0: the whole table)' },
  'POST /api/subscriptions/:tid/:rid/unsubscribe': { operationId: 'unsubscribe', summary: 'Stop following a record (record id 0: the whole table)' },
  'POST /api/subscriptions/:tid/status': { operationId: 'getSubscriptionStatus', summary: 'Whether the caller follows the table, and a record of it' },
  'POST /api/events/list': { operationId: 'listEvents', summary: "The account's audit events, newest first (account owner)" },

  'POST /api/table/:tid/webhooks/create': { operationId: 'createWebhook', summary: 'Create a webhook; its signing secret is shown once (space admins)' },
  'GET /api/table/:tid/webhooks/list': { operationId: 'listWebhooks', summary: "A table's webhooks, without secrets (space admins)" },
  'POST /api/webhook/:wid/update': { operationId: 'updateWebhook', summary: 'Change a webhook, or turn it off or back on (space admins)' },
  'POST /api/webhook/:wid/delete': { operationId: 'deleteWebhook', summary: 'Delete a webhook and its delivery log (space admins)' },
  'POST /api/webhook/:wid/rotate_secret': { operationId: 'rotateWebhookSecret', summary: 'A new signing secret; the old one keeps signing for 24 hours (space admins)' },
  'POST /api/webhook/:wid/deliveries': { operationId: 'listWebhookDeliveries', summary: "A webhook's delivery log, newest first (space admins)" },
  'POST /api/webhook/:wid/deliveries/:did/redeliver': { operationId: 'redeliverWebhookDelivery', summary: 'Send the change of a logged delivery again, now (space admins)' },
};
