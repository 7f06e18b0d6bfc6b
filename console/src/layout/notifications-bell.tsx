import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog, DialogTrigger, Heading, Popover } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api, unwrap, type PostResult } from '../api/client';
import { keys, useTable } from '../api/queries';
import { when } from '../record/comment-thread';
import { Button } from '../ui/button';

type Notification = PostResult<'/api/notifications/list'>[number];

/** The unread count reads at most this many; more shows as "200+". */
const unreadCap = 200;
const listed = 30;

/** The bell of the app shell: unread count, the latest notifications, mark read; each opens its record at its comment. */
export function NotificationsBell() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const unread = useQuery({
    queryKey: [...keys.notifications, 'unread'],
    queryFn: () => unwrap(api.POST('/api/notifications/list', { body: { filter: 'unread', limit: unreadCap } })),
    refetchInterval: 30_000,
    retry: false,
  });
  const list = useQuery({
    queryKey: [...keys.notifications, 'list'],
    queryFn: () => unwrap(api.POST('/api/notifications/list', { body: { filter: 'all', limit: listed } })),
    enabled: open,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.notifications });
  const markRead = async (id: number) => {
    await unwrap(api.POST('/api/notifications/{id}/markRead', { params: { path: { id } } }));
    await refresh();
  };
  const markAll = async () => {
    setError(null);
    try {
      await unwrap(api.POST('/api/notifications/markAllRead'));
      await refresh();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };
  const openNotification = async (notification: Notification) => {
    setError(null);
    try {
      if (!notification.read) await markRead(notification.id);
      const table = await queryClient.fetchQuery({ queryKey: keys.table(notification.table_id), queryFn: () => unwrap(api.GET('/api/table/{tid}/get', { params: { path: { tid: notification.table_id } } })) });
      setOpen(false);
      const comment = notification.comment_id ? `?comment=${notification.comment_id}` : '';
      navigate(`/space/${(table as { space_id: number }).space_id}/table/${notification.table_id}/record/${notification.record_id}${comment}`);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };
  // An account key cannot read notifications (403); nor can anything that is not a user.
  if (unread.isError) return null;
  const count = unread.data?.length ?? 0;
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="quiet" className="bell">
        Notifications
        {count > 0 && (
          <span className="bell-count">
            {count >= unreadCap ? `${unreadCap}+` : count}
            <span className="visually-hidden"> unread</span>
          </span>
        )}
      </Button>
      <Popover className="popover notifications-popover" placement="bottom end">
        <Dialog className="notifications-dialog" aria-labelledby="notifications-heading">
          <div className="notifications-head">
            <Heading id="notifications-heading" slot="title">
              Notifications
            </Heading>
            <Button variant="quiet" isDisabled={count === 0} onPress={() => void markAll()}>
              Mark all read
            </Button>
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          {list.isPending ? (
            <p className="muted">Loading…</p>
          ) : list.isError ? (
            <p className="form-error" role="alert">
              {list.error.message}
            </p>
          ) : list.data.length === 0 ? (
            <p className="muted">Nothing yet.</p>
          ) : (
            <ul className="notification-list">
              {list.data.map((notification) => (
                <NotificationItem key={notification.id} notification={notification} onOpen={() => void openNotification(notification)} onMarkRead={() => void markRead(notification.id)} />
              ))}
            </ul>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

function NotificationItem({ notification, onOpen, onMarkRead }: { notification: Notification; onOpen(): void; onMarkRead(): void }) {
  const table = useTable(notification.table_id);
  const where = `record ${notification.record_id} in ${table.data?.name ?? `table ${notification.table_id}`}`;
  const what = notification.kind === 'comment.mention' ? `mentioned you on ${where}` : `commented on ${where}`;
  return (
    <li className={notification.read ? 'notification' : 'notification notification-unread'}>
      <Button variant="quiet" className="notification-open" onPress={onOpen}>
        <span>
          {!notification.read && <span className="visually-hidden">Unread: </span>}
          <strong>{notification.actor.name}</strong> {what}
        </span>
        <span className="muted">{when(notification.created_at)}</span>
      </Button>
      {!notification.read && (
        <Button variant="quiet" aria-label={`Mark read: ${notification.actor.name} ${what}`} onPress={onMarkRead}>
          Mark read
        </Button>
      )}
    </li>
  );
}
