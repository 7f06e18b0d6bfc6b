import { useQuery } from '@tanstack/react-query';
import { useState, type KeyboardEvent, type Ref } from 'react';
import { api, unwrap } from '../api/client';
import { useMembers } from '../record/record-api';
import type { Field } from '../api/types';
import { FileThumbnail } from '../record/file-thumbnail';
import { isImage } from '../record/file-urls';

/** How many matches the lookup picker shows. */
const lookupResults = 20;

interface PickerProps {
  field: Field;
  text: string;
  setText(text: string): void;
  value: unknown;
  common: Record<string, unknown>;
}

/** Ids of a user or lookup cell's value (a list of `{id, …}` objects). */
export function idsOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) => String(typeof item === 'object' && item !== null ? (item as { id: number }).id : item));
}

/** A user cell: one (or several) of the space's members (`members/list`). */
export function UserPicker({ field, text, setText, value, common, spaceId }: PickerProps & { spaceId: number }) {
  // The account's owner sees every space without being listed as a member: they may still be picked.
  const list = useMembers(spaceId);
  const label = (member: { email: string; name: string | null }) => (member.name ? `${member.name} (${member.email})` : member.email);
  if (field.multiple) {
    return (
      <select {...common} multiple defaultValue={idsOf(value)} size={Math.min(6, Math.max(2, list.length))} className="cell-input cell-picker" key={list.length}>
        {list.map((member) => (
          <option key={member.user_id} value={member.user_id}>
            {label(member)}
          </option>
        ))}
      </select>
    );
  }
  return (
    <select {...common} value={text} onChange={(event) => setText(event.target.value)}>
      <option value="">(nobody)</option>
      {list.map((member) => (
        <option key={member.user_id} value={member.user_id}>
          {label(member)}
        </option>
      ))}
    </select>
  );
}

/**
 * A lookup cell: search the target table (`records/query` with `search`), pick from the matches.
 * ArrowDown goes from the search box to the matches; Enter saves what is chosen there.
 */
export function LookupPicker({ field, text, setText, value, common }: PickerProps) {
  const [search, setSearch] = useState('');
  const target = field.table_id ?? 0;
  const matches = useQuery({
    queryKey: ['table', target, 'records', 'lookup-search', search],
    queryFn: ({ signal }) => unwrap(api.POST('/api/table/{tid}/records/query', { params: { path: { tid: target } }, body: { search, limit: lookupResults }, signal })) as Promise<{ id: number; title: string | null }[]>,
    enabled: target > 0,
  });
  const current = (Array.isArray(value) ? value : value ? [value] : []) as { id: number; title?: string | null }[];
  const options = [...current, ...(matches.data ?? []).filter((match) => !current.some((item) => item.id === match.id))];
  const { ref, onKeyDown, 'aria-label': label, ...rest } = common as { ref: Ref<HTMLSelectElement>; onKeyDown(event: KeyboardEvent): void; 'aria-label': string };
  const list = (
    <select
      {...rest}
      ref={ref}
      aria-label={label}
      onKeyDown={onKeyDown}
      multiple={field.multiple}
      size={Math.min(6, Math.max(2, options.length))}
      className="cell-input cell-picker"
      {...(field.multiple ? { defaultValue: idsOf(value) } : { value: text, onChange: (event: { target: { value: string } }) => setText(event.target.value) })}
    >
      {!field.multiple && <option value="">(none)</option>}
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.title ?? `#${option.id}`}
        </option>
      ))}
    </select>
  );
  return (
    <div className="cell-picker-panel">
      <input
        type="search"
        className="cell-input"
        aria-label={`Search ${label}`}
        placeholder="Search…"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            event.stopPropagation();
            (event.currentTarget.nextElementSibling as HTMLElement | null)?.focus();
          } else onKeyDown(event);
        }}
      />
      {list}
      {matches.isError && <p role="alert">Could not search: {matches.error.message}</p>}
    </div>
  );
}

interface Attachment {
  name?: string;
  path: string;
  type?: string;
  size?: number;
}

/** A file cell: its files by name, images with the server's smallest thumbnail. Read-only in the grid for now. */
export function FileCell({ tid, rid, fieldId, value }: { tid: number; rid: number; fieldId: string; value: unknown }) {
  const files = (Array.isArray(value) ? value : []) as Attachment[];
  return (
    <span className="cell-text">
      {files.map((file, index) => (
        <span key={file.path} className="file-chip">
          {isImage(file.type) && <FileThumbnail tid={tid} rid={rid} fieldId={fieldId} file={file} size={64} className="file-thumb" alt="" />}
          {file.name ?? 'file'}
          {index < files.length - 1 ? ', ' : ''}
        </span>
      ))}
    </span>
  );
}
