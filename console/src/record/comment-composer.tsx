import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { FileTrigger } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import { Button } from '../ui/button';
import { fromTokens, mentionQuery, toTokens, tokenName, type Mention } from './mentions';
import { messageOf, useMembers, type Attachment } from './record-api';
import { base64Of } from './upload';

/** How many members the @ list suggests at once. */
const suggestions = 6;

interface ComposerProps {
  tid: number;
  rid: number;
  sid: number;
  /** The comment being edited (its stored content), or none for a new one. */
  initial?: string;
  label: string;
  submitLabel: string;
  /** Edits carry no new attachments (comment/update takes content only). */
  allowAttachments?: boolean;
  onSubmit(content: string, attachments: Attachment[]): Promise<void>;
  onCancel?(): void;
}

/**
 * The comment box: `@` and the first letters of a member's name suggest them (ArrowUp/Down, Enter
 * or Tab to pick, Esc to close); a picked member is sent as the specification's mention token.
 */
export function CommentComposer({ tid, rid, sid, initial, label, submitLabel, allowAttachments = true, onSubmit, onCancel }: ComposerProps) {
  const start = fromTokens(initial ?? '');
  const [text, setText] = useState(start.text);
  const [mentions, setMentions] = useState<Mention[]>(start.mentions);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [highlight, setHighlight] = useState(0);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes once a picked mention is in the text: set in the same commit, before the next keystroke.
  const caretAfter = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caretAfter.current === null) return;
    box.current?.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
  });
  const listId = useId();
  const members = useMembers(sid);
  const nameOf = (member: { name: string | null; email: string }) => tokenName(member.name || member.email);
  const matches = query
    ? members.filter((member) => [member.name ?? '', member.email].some((candidate) => candidate.toLowerCase().split(/\s+/).some((word) => word.startsWith(query.query.toLowerCase())) || candidate.toLowerCase().startsWith(query.query.toLowerCase()))).slice(0, suggestions)
    : [];
  const open = query !== null && matches.length > 0;

  const update = (next: string, caret: number) => {
    setText(next);
    setQuery(mentionQuery(next, caret));
    setHighlight(0);
  };
  const pick = (member: { user_id: number; name: string | null; email: string }) => {
    if (!query) return;
    const name = nameOf(member);
    const caret = box.current?.selectionStart ?? text.length;
    const next = `${text.slice(0, query.start)}@${name} ${text.slice(caret)}`;
    setText(next);
    setMentions((list) => (list.some((mention) => mention.id === member.user_id) ? list : [...list, { id: member.user_id, name }]));
    setQuery(null);
    caretAfter.current = query.start + name.length + 2;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setHighlight((index) => (index + (event.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(matches[Math.min(highlight, matches.length - 1)]);
        return;
      }
      if (event.key === 'Escape') {
        // Closes the list only, not the drawer around it.
        event.preventDefault();
        event.stopPropagation();
        setQuery(null);
        return;
      }
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };
  const attach = async (files: File[]) => {
    setError(null);
    try {
      for (const file of files) {
        const uploaded = await unwrap(api.POST('/api/table/{tid}/record/{rid}/comments/upload', { params: { path: { tid, rid } }, body: { name: file.name, type: file.type || undefined, data: await base64Of(file) } }));
        setAttachments((list) => [...list, uploaded as Attachment]);
      }
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSubmit(toTokens(text, mentions), attachments);
      setText('');
      setMentions([]);
      setAttachments([]);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="comment-composer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="mention-anchor">
        <textarea
          ref={box}
          className="input comment-input"
          aria-label={label}
          rows={3}
          value={text}
          placeholder="Write a comment; @ mentions a member"
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? `${listId}-${highlight}` : undefined}
          onChange={(event) => update(event.target.value, event.target.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => setTimeout(() => setQuery(null), 150)}
        />
        {open && (
          <ul id={listId} role="listbox" aria-label="Members to mention" className="mention-list">
            {matches.map((member, index) => (
              <li
                key={member.user_id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === highlight}
                className={index === highlight ? 'mention-option mention-option-active' : 'mention-option'}
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(member);
                }}
              >
                {member.name || member.email} <span className="muted">{member.name ? member.email : ''}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {attachments.length > 0 && (
        <ul className="comment-attachments" aria-label="Attached files">
          {attachments.map((file) => (
            <li key={file.path}>
              {file.name}{' '}
              <Button variant="quiet" aria-label={`Remove ${file.name}`} onPress={() => setAttachments((list) => list.filter((item) => item.path !== file.path))}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="row">
        <Button type="submit" variant="primary" isDisabled={busy || (text.trim() === '' && attachments.length === 0)}>
          {submitLabel}
        </Button>
        {allowAttachments && (
          <FileTrigger allowsMultiple onSelect={(list) => list && void attach([...list])}>
            <Button variant="secondary">Attach file</Button>
          </FileTrigger>
        )}
        {onCancel && <Button onPress={onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}
