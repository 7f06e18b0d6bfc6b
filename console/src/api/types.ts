import type { GetResult, PostResult } from './client';

export type User = GetResult<'/api/auth/me'>['user'];
export type Space = GetResult<'/api/spaces/list'>[number];
export type TableSummary = GetResult<'/api/space/{sid}/tables/list'>[number];
/**
 * A field of a table, as docs/api.md ("Field definition") describes it: the OpenAPI document
 * types fields as open objects (their settings depend on the type).
 */
export interface Field {
  id: string;
  name: string;
  type: 'text' | 'longtext' | 'number' | 'checkbox' | 'email' | 'url' | 'select' | 'user' | 'lookup' | 'date' | 'datetime' | 'time' | 'file';
  multiple: boolean;
  required: boolean;
  editable_by: 'members' | 'admins' | 'none';
  hidden: 'always' | null;
  options?: { value: string; color?: string }[];
  table_id?: number;
  decimals?: number | null;
}
export type Table = Omit<GetResult<'/api/table/{tid}/get'>, 'fields'> & { fields: Field[] };
export type TableRecord = PostResult<'/api/table/{tid}/records/query'>[number];
export type RecordCount = PostResult<'/api/table/{tid}/records/count'>;
