/**
 * One request body example per operation that takes a JSON body, keyed like openapi-operations.ts
 * (`METHOD path`, Fastify's `:param` syntax). http/openapi.ts puts each on the operation's
 * request body in the OpenAPI document, so Swagger UI (/docs) pre-fills "Try it out" with a call
 * that makes sense instead of `"string"` placeholders. They tell one story, the README's: space 1
 * "Sales", table 1 "Contacts" (name, email, stage: lead | customer), record 1 Ada Lovelace.
 * test/http/openapi-examples.test.ts fails for a JSON body without an example, and Redocly's
 * lint (`npm run lint:openapi`) for an example its schema refuses.
 */
const attachmentPath = '/s1/3f2a9c0e5b7d41e8a6c2f0b9d8e7a615-notes.md';

export const requestExamples: Readonly<Record<string, unknown>> = {
  'POST /api/auth/login': { email: 'admin@localhost', password: 'pOlTYVWMryP3VApK' },

  'POST /api/auth/password': { current: 'pOlTYVWMryP3VApK', new: 'a longer passphrase of mine' },
  'POST /api/users/create': { email: 'ada@example.com', name: 'Ada Lovelace' },
  'POST /api/keys/create': { name: 'Reporting', kind: 'account', read_only: true, spaces: [1], ip_allow: ['10.0.0.0/8'], expires_at: '2027-01-01 00:00:00' },
  'POST /api/table/:tid/changes/list': { after: 0, limit: 100 },
  'POST /api/table/:tid/record/:rid/history': { limit: 50 },
  'POST /api/table/:tid/records/trash': { limit: 100, offset: 0 },
  'POST /api/table/:tid/records/restore': { ids: [1] },

  'POST /api/spaces/create': { name: 'Sales', storage: { kind: 'managed' } },
  'POST /api/space/:sid/update': { name: 'Sales EMEA' },
  'POST /api/space/:sid/members/add': { email: 'ada@example.com', role: 'editor' },
  'POST /api/space/:sid/members/remove': { user_id: 3 },

  'POST /api/space/:sid/tables/create': {
    name: 'Contacts',
    fields: [
      { name: 'Name', type: 'text', required: true },
      { name: 'Email', type: 'email' },
      { name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'customer' }] },
    ],
    title_field: 'name',
  },
  'POST /api/table/:tid/update': { name: 'Customers', title_field: 'name' },
  'POST /api/table/:tid/fields/create': { name: 'Files', type: 'file' },
  'POST /api/table/:tid/field/:slug/update': { name: 'Sales stage', options: [{ value: 'lead', color: '#f5a623' }, { value: 'customer', color: '#7ed321' }, { value: 'churned' }] },
  'POST /api/table/:tid/indexes/create': { fields: ['stage', 'name'], direction: 'asc' },

  'POST /api/table/:tid/records/create': { data: { name: 'Ada Lovelace', email: 'ada@example.com', stage: 'lead' } },
  'POST /api/table/:tid/record/:rid/update': { data: { stage: 'customer' } },
  'POST /api/table/:tid/records/query': { where: { stage: 'lead' }, search: 'ada', order_by: 'name', order_dir: 'A', limit: 20, offset: 0 },
  'POST /api/table/:tid/records/count': { filters: [{ field: 'email', compare: 'ends_with', value: '@example.com' }] },
  'POST /api/table/:tid/records/ids': { where: { stage: 'customer' }, order_by: 'name' },
  'POST /api/table/:tid/records/export': { where: { stage: 'customer' }, fields: ['name', 'email'], format: 'csv' },
  'POST /api/table/:tid/records/delete_batch': { record_ids: [4, 5] },
  'POST /api/table/:tid/records/create_batch': { records: [{ data: { name: 'Mary Jackson', stage: 'lead' } }, { data: { name: 'Annie Easley', email: 'annie@example.com' } }] },
  'POST /api/table/:tid/records/validate_batch': { records: [{ data: { name: 'Mary Jackson', stage: 'lead' } }, { data: { name: 'Annie Easley', stage: 'prospect' } }, { data: { name: 'Dorothy Vaughan', phone: '555-0100' } }] },
  'POST /api/table/:tid/records/update_batch': { records: [{ id: 4, data: { stage: 'customer' } }, { id: 5, data: { stage: 'customer' } }] },
  'POST /api/table/:tid/records/upsert_batch': { match_on: ['email'], records: [{ data: { email: 'grace@example.com', name: 'Grace Hopper', stage: 'lead' } }] },

  'POST /api/table/:tid/record/:rid/files/create': { field_id: 'files', name: 'notes.md', type: 'text/markdown', data: 'IyBOb3Rlcwo=' },
  'POST /api/table/:tid/record/:rid/files/get': { field_id: 'files', path: attachmentPath },
  'POST /api/table/:tid/record/:rid/files/delete': { field_id: 'files', path: attachmentPath },

  'POST /api/table/:tid/views/create': {
    name: 'Leads',
    type: 'grid',
    config: { columns: ['name', 'email'] },
    filters: [{ field: 'stage', compare: '=', value: 'lead' }],
    order_by: 'name',
    order_dir: 'A',
  },
  'POST /api/table/:tid/view/:vid/update': { name: 'Open leads', is_table_default: true },

  'POST /api/table/:tid/record/:rid/comments/create': { content: 'Called @[Ada Lovelace](user:2): she would like a demo next week.' },
  'POST /api/table/:tid/record/:rid/comments/createEmailComment': {
    from: { email: 'ada@example.com', name: 'Ada Lovelace' },
    to: ['sales@example.com'],
    subject: 'Demo next week?',
    body: 'Could we see a demo on Tuesday afternoon?',
    messageId: '<demo-1@example.com>',
  },
  'POST /api/table/:tid/record/:rid/comments/upload': { name: 'notes.md', type: 'text/markdown', data: 'IyBOb3Rlcwo=' },
  'POST /api/table/:tid/record/:rid/comments/files/get': { comment_id: 1, path: attachmentPath },
  'POST /api/table/:tid/record/:rid/comment/:cid/update': { content: 'Called Ada: demo on Tuesday.' },

  'POST /api/notifications/list': { filter: 'unread', limit: 20, offset: 0 },
  'POST /api/subscriptions/:tid/status': { record_id: 1 },
  'POST /api/events/list': { limit: 50, offset: 0 },

  'POST /api/table/:tid/webhooks/create': { url: 'https://hooks.example.com/tabula', events: ['record.created', 'record.updated'], fields: ['stage'] },
  'POST /api/webhook/:wid/update': { active: true },
  'POST /api/webhook/:wid/deliveries': { limit: 50, offset: 0 },
};
