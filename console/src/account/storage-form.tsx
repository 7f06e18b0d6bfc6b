import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { keys } from '../api/queries';
import { Button } from '../ui/button';
import { AccountField, AccountForm } from './account-form';

type Kind = 'managed' | 'none' | 's3' | 'ftp' | 'sftp';
interface Setting {
  name: string;
  label: string;
  required?: boolean;
  secret?: boolean;
  type?: 'number' | 'boolean' | 'multiline';
}

/** docs/api.md, Spaces: the settings of each storage kind (secret ones are sealed and never answered). */
const shapes: Record<Kind, Setting[]> = {
  managed: [],
  none: [],
  s3: [
    { name: 'endpoint', label: 'Endpoint (empty: AWS)' },
    { name: 'region', label: 'Region', required: true },
    { name: 'bucket', label: 'Bucket', required: true },
    { name: 'prefix', label: 'Prefix' },
    { name: 'access_key_id', label: 'Access key id', required: true, secret: true },
    { name: 'secret_access_key', label: 'Secret access key', required: true, secret: true },
  ],
  ftp: [
    { name: 'host', label: 'Host', required: true },
    { name: 'port', label: 'Port', type: 'number' },
    { name: 'user', label: 'User', required: true },
    { name: 'secure', label: 'FTPS (TLS)', type: 'boolean' },
    { name: 'folder', label: 'Folder' },
    { name: 'password', label: 'Password', secret: true },
  ],
  sftp: [
    { name: 'host', label: 'Host', required: true },
    { name: 'port', label: 'Port', type: 'number' },
    { name: 'username', label: 'User name', required: true },
    { name: 'folder', label: 'Folder' },
    { name: 'password', label: 'Password', secret: true },
    { name: 'private_key', label: 'Private key (unencrypted)', secret: true, type: 'multiline' },
  ],
};
const kindLabels: Record<Kind, string> = { managed: 'Managed by Tabula', none: 'No file attachments', s3: 'S3', ftp: 'FTP', sftp: 'SFTP' };

/**
 * Where a space's files live. Secrets are never shown: their inputs start empty, and an empty
 * one keeps the stored secret when the kind stays the same (the server keeps it then).
 */
export function StorageForm({ sid, storage }: { sid: number; storage: Record<string, unknown> & { kind: string } }) {
  const queryClient = useQueryClient();
  const current = storage.kind as Kind;
  const [kind, setKind] = useState<Kind>(current);
  const [saved, setSaved] = useState(false);
  const save = async (form: FormData) => {
    setSaved(false);
    const body: Record<string, unknown> = { kind };
    for (const setting of shapes[kind]) {
      if (setting.type === 'boolean') {
        body[setting.name] = form.get(setting.name) === 'yes';
        continue;
      }
      const value = String(form.get(setting.name) ?? '');
      if (value === '') continue; // absent: optional, or a stored secret kept
      body[setting.name] = setting.type === 'number' ? Number(value) : value;
    }
    // Built from `shapes` at run time; the server checks it (400 naming the setting).
    await unwrap(api.POST('/api/space/{sid}/update', { params: { path: { sid } }, body: { storage: body as unknown as { kind: 'managed' } } }));
    await queryClient.invalidateQueries({ queryKey: keys.space(sid) });
    setSaved(true);
  };
  const sameKind = kind === current;
  return (
    <AccountForm onSubmit={save} label="File storage" key={kind}>
      <label className="field">
        <span className="field-label">Kind</span>
        <select className="input" name="kind" value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
          {(Object.keys(kindLabels) as Kind[]).map((k) => (
            <option key={k} value={k}>
              {kindLabels[k]}
            </option>
          ))}
        </select>
      </label>
      {shapes[kind].map((setting) => {
        const stored = sameKind ? storage[setting.name] : undefined;
        if (setting.type === 'boolean') {
          return (
            <label className="checkbox-field" key={setting.name}>
              <input type="checkbox" name={setting.name} value="yes" defaultChecked={stored === true} /> {setting.label}
            </label>
          );
        }
        if (setting.type === 'multiline') {
          return (
            <label className="field" key={setting.name}>
              <span className="field-label">{setting.label}</span>
              <textarea className="input" name={setting.name} rows={4} defaultValue="" />
              {sameKind && <span className="field-hint">Leave empty to keep.</span>}
            </label>
          );
        }
        return (
          <AccountField
            key={setting.name}
            label={setting.label}
            name={setting.name}
            type={setting.secret ? 'password' : setting.type === 'number' ? 'number' : 'text'}
            autoComplete={setting.secret ? 'new-password' : 'off'}
            defaultValue={setting.secret || stored === undefined || stored === null ? '' : String(stored)}
            isRequired={setting.required && !(setting.secret && sameKind)}
            description={setting.secret && sameKind ? 'Leave empty to keep.' : undefined}
          />
        );
      })}
      <Button type="submit" variant="primary">
        Save storage
      </Button>
      {saved && <p role="status">Storage saved.</p>}
    </AccountForm>
  );
}
