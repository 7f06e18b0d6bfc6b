import type { Generated } from 'kysely';

/** System tables. Datetimes are stored as `YYYY-MM-DD HH:MM:SS` UTC text on both engines. */
export interface SystemSchema {
  accounts: { id: Generated<number>; name: string; owner_user_id: number | null; created_at: string };
  users: {
    id: Generated<number>;
    account_id: number;
    email: string;
    name: string;
    password_hash: string;
    created_at: string;
    updated_at: string;
  };
  spaces: {
    id: Generated<number>;
    account_id: number;
    name: string;
    storage_json: string;
    created_at: string;
    updated_at: string;
  };
  members: { space_id: number; user_id: number; role: string; created_at: string };
  tables: {
    id: Generated<number>;
    account_id: number;
    space_id: number;
    name: string;
    title_field_id: number | null;
    schema_version: Generated<number>;
    created_at: string;
    updated_at: string;
  };
  fields: {
    id: Generated<number>;
    table_id: number;
    slug: string;
    name: string;
    type: string;
    settings_json: string;
    position: number;
  };
  metadata_version: { id: number; version: number };
  table_counters: { table_id: number; shard: number; row_count: number; change_count: number };
  table_indexes: {
    id: Generated<number>;
    table_id: number;
    name: string;
    field_ids_json: string;
    origin: Generated<string>;
    direction: string | null;
    reason: string | null;
    created_at: string | null;
    last_used_at: string | null;
  };
  api_keys: {
    id: Generated<number>;
    account_id: number;
    user_id: number | null;
    name: string;
    secret_hash: string;
    read_only: number;
    space_ids_json: string | null;
    ip_allow_json: string | null;
    created_at: string;
    revoked_at: string | null;
    /** UTC `YYYY-MM-DD HH:MM:SS`; null: never expires. */
    expires_at: string | null;
  };
  /** When each key was last used, written at most once a minute per key and process. */
  api_key_usage: { key_id: number; last_used_at: string };
  sessions: { token_hash: string; user_id: number; created_at: string; expires_at: string };
  views: {
    id: Generated<number>;
    account_id: number;
    table_id: number;
    name: string;
    type: string;
    config_json: string;
    filters_json: string;
    order_by: string | null;
    order_dir: string | null;
    is_table_default: number;
    created_by: number;
    created_at: string;
    updated_at: string;
  };
  comments: {
    id: Generated<number>;
    account_id: number;
    table_id: number;
    record_id: number;
    user_id: number;
    user_name: string;
    api_key_id: number | null;
    content: string;
    attachments_json: string;
    type: string;
    status: string | null;
    email_json: string | null;
    created_at: string;
    updated_at: string | null;
  };
  notifications: {
    id: Generated<number>;
    account_id: number;
    user_id: number;
    kind: string;
    actor_user_id: number;
    actor_name: string;
    table_id: number;
    record_id: number;
    comment_id: number | null;
    created_at: string;
    read_at: string | null;
  };
  subscriptions: { table_id: number; record_id: number; user_id: number; created_at: string };
  events: {
    id: Generated<number>;
    account_id: number;
    kind: string;
    user_id: number;
    api_key_id: number | null;
    table_id: number | null;
    record_id: number | null;
    comment_id: number | null;
    created_at: string;
  };
  changes: {
    seq: Generated<number>;
    account_id: number;
    space_id: number;
    table_id: number;
    record_id: number;
    comment_id: number | null;
    kind: string;
    at: string;
    actor_user_id: number | null;
    actor_api_key_id: number | null;
    actor_name: string;
    payload_json: string;
  };
  /** Changes waiting for PostgreSQL's sequencer: a row is one change, or (`record_ids` and the lists beside it) a write's several. */
  change_queue: {
    id: Generated<number>;
    account_id: number;
    space_id: number;
    table_id: number;
    record_id: number | null;
    comment_id: number | null;
    kind: string | null;
    at: string;
    actor_user_id: number | null;
    actor_api_key_id: number | null;
    actor_name: string;
    payload_json: string | null;
    /** A write's several changes, by position (null for a row that is one change); `payloads` one JSON text a line. */
    record_ids: number[] | null;
    comment_ids: Array<number | null> | null;
    kinds: string[] | null;
    payloads: string | null;
    change_count: Generated<number>;
  };
  job_leases: {
    name: string;
    /** The process running the job now (`host:pid:random`); null between runs. */
    holder: string | null;
    expires_at: string | null;
    next_run_at: string | null;
    runs: Generated<number>;
  };
  job_runs: {
    id: Generated<number>;
    job: string;
    holder: string;
    started_at: string;
    finished_at: string | null;
    /** `done`, `failed`, or `handed back` (stopped before it finished; the next holder runs it again). */
    outcome: string | null;
  };
  change_log_state: { id: number; purged_through: number | string };
  webhooks: {
    id: Generated<number>;
    account_id: number;
    space_id: number;
    table_id: number;
    url: string;
    events_json: string;
    fields_json: string;
    active: number;
    disabled_reason: string | null;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    previous_secret_until: string | null;
    created_by: number;
    created_at: string;
    updated_at: string;
    cursor: number | string;
    attempt: number;
    failing_since: string | null;
    next_attempt_at: string | null;
    claimed_by: string | null;
    lease_until: string | null;
  };
  webhook_deliveries: {
    id: Generated<number>;
    webhook_id: number;
    seq: number | string;
    kind: string;
    attempt: number;
    status: string;
    response_code: number | null;
    response_body: string | null;
    duration_ms: number;
    error: string | null;
    at: string;
    next_attempt_at: string | null;
  };
  record_trash: {
    table_id: number;
    record_id: number;
    deleted_at: string;
    deleted_by_user_id: number | null;
    deleted_by_api_key_id: number | null;
    deleted_by_name: string;
    row_json: string;
  };
  stored_files: {
    id: string;
    account_id: number;
    space_id: number;
    table_id: number;
    field_id: number;
    store: 'managed' | 'space';
    blob_key: string;
    path: string;
    name: string;
    type: string;
    size: number | string;
    host: string;
    state: 'pending' | 'live' | 'queued' | 'restored';
    reclaim_after: string | null;
    claim: string | null;
    claimed_at: string | null;
    created_at: string;
    released_at: string | null;
  };
}
