import { useQueryClient } from '@tanstack/react-query';
import { format, parseISO } from 'date-fns';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import { keys, useMe } from '../api/queries';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { CommentComposer } from './comment-composer';
import { splitMentions } from './mentions';
import { messageOf, useComments, type Attachment, type Comment } from './record-api';
import { saveBase64 } from './upload';

/** Stored times are UTC `YYYY-MM-DD HH:MM:SS`: shown spelled out, as stored. */
export function when(at: string): string {
  return `${format(parseISO(at.replace(' ', 'T')), 'd MMM yyyy, HH:mm')} UTC`;
}

/**
 * The record's comments (older pages on demand), the comment box, and editing or deleting one's
 * own. `canComment`: the server takes comments (and their edits) from those who may write the
 * record, editors and admins; a reader reads the thread only.
 */
export function CommentThread({ tid, rid, sid, focusComment, canComment }: { tid: number; rid: number; sid: number; focusComment?: number; canComment: boolean }) {
  const comments = useComments(tid, rid);
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: [...keys.record(tid, rid), 'comments'] });
    void queryClient.invalidateQueries({ queryKey: [...keys.record(tid, rid), 'history'] });
    void queryClient.invalidateQueries({ queryKey: [...keys.record(tid, rid), 'subscription'] });
  };
  // Pages come newest first, each oldest to newest: reversed, the thread reads top to bottom.
  const thread = [...(comments.data?.pages ?? [])].reverse().flat();
  useEffect(() => {
    if (!focusComment || !comments.data) return;
    const element = document.getElementById(`comment-${focusComment}`);
    element?.scrollIntoView({ block: 'center' });
    element?.focus({ preventScroll: true });
  }, [focusComment, comments.data]);

  return (
    <section className="record-section" aria-labelledby={`comments-${rid}`}>
      <h2 id={`comments-${rid}`}>Comments</h2>
      {comments.hasNextPage && (
        <Button variant="quiet" isDisabled={comments.isFetchingNextPage} onPress={() => void comments.fetchNextPage()}>
          {comments.isFetchingNextPage ? 'Loading…' : 'Show older comments'}
        </Button>
      )}
      {comments.isError && (
        <p className="form-error" role="alert">
          Could not load comments: {messageOf(comments.error)}
        </p>
      )}
      {comments.isSuccess && thread.length === 0 && <p className="muted">No comments yet.</p>}
      <ol className="comment-list">
        {thread.map((comment) => (
          <CommentItem key={comment.id} tid={tid} rid={rid} sid={sid} comment={comment} focused={comment.id === focusComment} canChange={canComment} onChanged={refresh} />
        ))}
      </ol>
      {canComment && (
        <CommentComposer
          tid={tid}
          rid={rid}
          sid={sid}
          label="Comment"
          submitLabel="Post comment"
          onSubmit={async (content, attachments) => {
            await unwrap(api.POST('/api/table/{tid}/record/{rid}/comments/create', { params: { path: { tid, rid } }, body: { content, attachments: attachments as never } }));
            refresh();
          }}
        />
      )}
    </section>
  );
}

function CommentItem({ tid, rid, sid, comment, focused, canChange, onChanged }: { tid: number; rid: number; sid: number; comment: Comment; focused: boolean; canChange: boolean; onChanged(): void }) {
  const me = useMe().data?.user;
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A session's comment is its user's; one posted with an API key (user_id 0) is nobody's here.
  const own = canChange && !!me && comment.user_id === me.id && comment.api_key_id === null;
  const email = (comment as Comment & { email?: { from: { email: string; name?: string }; to: string[]; subject: string; eml: Attachment | null } }).email;
  const download = async (file: Attachment) => {
    setError(null);
    try {
      const bytes = await unwrap(api.POST('/api/table/{tid}/record/{rid}/comments/files/get', { params: { path: { tid, rid } }, body: { comment_id: comment.id, path: file.path } }));
      saveBase64(bytes.name, bytes.type, bytes.data);
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  const remove = async () => {
    setConfirm(false);
    try {
      await unwrap(api.POST('/api/table/{tid}/record/{rid}/comment/{cid}/delete', { params: { path: { tid, rid, cid: comment.id } } }));
      onChanged();
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  return (
    <li id={`comment-${comment.id}`} tabIndex={-1} className={`comment${focused ? ' comment-focused' : ''}${email ? ' comment-email' : ''}`} aria-label={`Comment by ${comment.user_name}`}>
      <div className="comment-head">
        <strong>{comment.user_name}</strong>
        <span className="muted">
          {when(comment.created_at)}
          {comment.updated_at ? ' (edited)' : ''}
        </span>
        {email && <span className="comment-badge">Received e-mail</span>}
      </div>
      {email ? (
        <div className="comment-mail">
          <p className="comment-mail-meta">
            <span>Subject: {email.subject || '(none)'}</span>
            <span>To: {email.to.join(', ') || '—'}</span>
          </p>
          <p className="comment-body">{plainText(comment.content)}</p>
          {email.eml && (
            <Button variant="quiet" onPress={() => void download(email.eml!)}>
              Download {email.eml.name}
            </Button>
          )}
        </div>
      ) : editing ? (
        <CommentComposer
          tid={tid}
          rid={rid}
          sid={sid}
          initial={comment.content}
          label="Edit comment"
          submitLabel="Save comment"
          allowAttachments={false}
          onCancel={() => setEditing(false)}
          onSubmit={async (content) => {
            await unwrap(api.POST('/api/table/{tid}/record/{rid}/comment/{cid}/update', { params: { path: { tid, rid, cid: comment.id } }, body: { content } }));
            setEditing(false);
            onChanged();
          }}
        />
      ) : (
        <p className="comment-body">
          {splitMentions(comment.content).map((part, index) =>
            typeof part === 'string' ? (
              part
            ) : (
              <span key={index} className="mention">
                @{part.name}
              </span>
            ),
          )}
        </p>
      )}
      {comment.attachments.length > 0 && (
        <ul className="comment-attachments" aria-label="Attachments">
          {(comment.attachments as Attachment[]).map((file) => (
            <li key={file.path}>
              <Button variant="quiet" onPress={() => void download(file)}>
                Download {file.name}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {own && !editing && (
        <div className="comment-actions">
          <Button variant="quiet" onPress={() => setEditing(true)}>
            Edit
          </Button>
          <Button variant="quiet" onPress={() => setConfirm(true)}>
            Delete
          </Button>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <ConfirmDialog isOpen={confirm} title="Delete this comment?" message="The comment and its files will be removed." confirmLabel="Delete comment" onConfirm={() => void remove()} onCancel={() => setConfirm(false)} />
    </li>
  );
}

/** An e-mail's HTML body as text: parsed inertly (DOMParser runs no script, loads nothing), never rendered as HTML. */
export function plainText(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  for (const element of body.querySelectorAll('script, style, template, noscript')) element.remove();
  return body.textContent?.trim() ?? '';
}
