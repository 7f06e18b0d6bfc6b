import type { Field, Table } from '../api/types';
import { displayValue } from '../grid/cell-value';
import { Button } from '../ui/button';
import { plainText, when } from './comment-thread';
import { splitMentions } from './mentions';
import { messageOf, useHistory, type Change } from './record-api';

const kindLabels: Record<string, string> = {
  'record.created': 'created the record',
  'record.updated': 'changed',
  'record.deleted': 'deleted the record',
  'record.restored': 'restored the record',
  'comment.created': 'commented',
  'comment.updated': 'edited a comment',
  'comment.deleted': 'deleted a comment',
};

/** The record's changes, newest first (record/<rid>/history): who, when, and each field before → after. */
export function RecordHistory({ table, rid }: { table: Table; rid: number }) {
  const history = useHistory(table.id, rid);
  const changes = history.data?.pages.flat() ?? [];
  return (
    <section className="record-section" aria-labelledby={`history-${rid}`}>
      <h2 id={`history-${rid}`}>History</h2>
      {history.isError && (
        <p className="form-error" role="alert">
          Could not load the history: {messageOf(history.error)}
        </p>
      )}
      {history.isSuccess && changes.length === 0 && <p className="muted">No changes recorded.</p>}
      <ol className="history-list" aria-label="Changes, newest first">
        {changes.map((change) => (
          <HistoryEntry key={change.seq} table={table} change={change} />
        ))}
      </ol>
      {history.hasNextPage && (
        <Button variant="quiet" isDisabled={history.isFetchingNextPage} onPress={() => void history.fetchNextPage()}>
          {history.isFetchingNextPage ? 'Loading…' : 'Show older changes'}
        </Button>
      )}
    </section>
  );
}

function HistoryEntry({ table, change }: { table: Table; change: Change }) {
  const isComment = change.kind.startsWith('comment.');
  // Field changes are listed for updates (creation and deletion show every value, which says little here).
  const fields = change.kind === 'record.updated' ? change.fields : [];
  return (
    <li className="history-entry">
      <div>
        <strong>{change.actor.name}</strong> {kindLabels[change.kind] ?? change.kind}
        {fields.length > 0 && ` ${fields.map((slug) => fieldOf(table, slug).name).join(', ')}`} <span className="muted">· {when(change.at)}</span>
      </div>
      {fields.length > 0 && (
        <dl className="history-changes">
          {fields.map((slug) => {
            const field = fieldOf(table, slug);
            return (
              <div key={slug} className="history-change">
                <dt>{field.name}</dt>
                <dd>
                  <span className="history-before">{shown(field, (change.before as Record<string, unknown>)[slug])}</span>
                  <span aria-label="changed to"> → </span>
                  <span className="history-after">{shown(field, (change.after as Record<string, unknown>)[slug])}</span>
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      {isComment && typeof (change.after as { content?: unknown }).content === 'string' && (
        <p className="history-comment">
          {/* An e-mail's content is HTML: its text only, as in the thread. */}
          {plainText(
            splitMentions((change.after as { content: string }).content)
              .map((part) => (typeof part === 'string' ? part : `@${part.name}`))
              .join(''),
          )}
        </p>
      )}
    </li>
  );
}

/** A field by its slug; one deleted since the change is shown by its slug as text. */
function fieldOf(table: Table, slug: string): Field {
  return table.fields.find((field) => field.id === slug) ?? ({ id: slug, name: slug, type: 'text' } as Field);
}

function shown(field: Field, value: unknown): string {
  const text = displayValue(field, value);
  return text === '' || (Array.isArray(value) && value.length === 0) ? 'empty' : text;
}
