import { useState } from 'react';
import { api, ApiError } from '../api/client';
import { Button } from '../ui/button';

/** The file name the server gives (`Content-Disposition: attachment; filename="table-2.csv"`), or one of ours. */
function fileNameOf(response: Response, tid: number): string {
  return /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `table-${tid}.csv`;
}

/**
 * "Export CSV": the records the toolbar shows (its filters, sort and search, or the saved view),
 * every one of them and not only the loaded pages, through `records/export` (docs/api.md), as a
 * download. `columns` narrows it to the shown fields, in their order, when the view chose some.
 */
export function ExportButton({ tid, query, columns }: { tid: number; query: Record<string, unknown>; columns: string[] }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = { ...query, ...(columns.length ? { fields: columns } : {}), format: 'csv' };
      const { response } = await api.POST('/api/table/{tid}/records/export', { params: { path: { tid } }, body: body as never, parseAs: 'stream' });
      if (!response.ok) {
        const answer = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
        throw new ApiError(response.status, answer?.error?.code ?? 'http_error', answer?.error?.message ?? `${response.status} ${response.statusText}`);
      }
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response, tid);
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="secondary" onPress={() => void download()} isDisabled={busy}>
        {busy ? 'Exporting…' : 'Export CSV'}
      </Button>
      {error && (
        <span className="form-error" role="alert">
          Export failed: {error}
        </span>
      )}
    </>
  );
}
