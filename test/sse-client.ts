import http from 'node:http';

/** One Server-Sent Event as a client sees it; `comment` for a comment line (`: heartbeat`). */
export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

export interface StreamRequest {
  key?: string;
  cookie?: string;
  headers?: Record<string, string>;
  agent?: http.Agent;
}

/**
 * A change stream read over a real connection (app.inject waits for an answer's end, which a
 * stream never reaches). Parses events as they come; a refusal's JSON body lands in `body`.
 */
export class SseStream {
  readonly events: SseEvent[] = [];
  body = '';
  closed = false;
  private pending = '';
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
    readonly response: http.IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.receive(chunk));
    const finish = () => {
      this.closed = true;
      this.notify();
    };
    response.on('end', finish);
    response.on('close', finish);
    response.on('error', finish);
  }

  /** The JSON of a refusal. */
  get json(): any {
    return JSON.parse(this.body);
  }

  /** Events that are changes, as objects. */
  changes(): Array<{ seq: number; kind: string; table_id: number; record_id: number; [key: string]: unknown }> {
    return this.events.filter((event) => event.data !== undefined && event.event !== 'resync' && event.event !== 'end').map((event) => JSON.parse(event.data!));
  }

  /** Resolves once `test` holds (checked on every event and at the end), or rejects after `timeoutMs`. */
  waitUntil(test: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!test()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`Timed out waiting for ${what}; got ${JSON.stringify(this.events.slice(-5))}${this.closed ? ' (closed)' : ''}`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  waitForChanges(count: number, timeoutMs?: number): Promise<void> {
    return this.waitUntil(() => this.changes().length >= count, `${count} changes`, timeoutMs);
  }

  waitForEvent(name: string, timeoutMs?: number): Promise<SseEvent> {
    return this.waitUntil(() => this.events.some((event) => event.event === name), `event ${name}`, timeoutMs).then(() => this.events.find((event) => event.event === name)!);
  }

  waitForClose(timeoutMs?: number): Promise<void> {
    return this.waitUntil(() => this.closed, 'the stream to close', timeoutMs);
  }

  close(): void {
    this.response.destroy();
  }

  private receive(chunk: string): void {
    if (this.status !== 200) {
      this.body += chunk;
      return;
    }
    this.pending += chunk;
    let end: number;
    while ((end = this.pending.indexOf('\n\n')) >= 0) {
      const block = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      const event: SseEvent = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) event.comment = line.slice(1).trim();
        else {
          const colon = line.indexOf(':');
          const field = line.slice(0, colon) as 'id' | 'event' | 'data';
          event[field] = line.slice(colon + 1).replace(/^ /, '');
        }
      }
      this.events.push(event);
    }
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** Opens `path` on `baseUrl` and resolves once the answer's headers arrived (a refusal: once its body did). */
export function openStream(baseUrl: string, path: string, options: StreamRequest = {}): Promise<SseStream> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}${path}`, { headers, agent: options.agent ?? false }, (response) => {
      const stream = new SseStream(response.statusCode ?? 0, response.headers, response);
      if (response.statusCode === 200) resolve(stream);
      else response.on('end', () => resolve(stream));
    });
    request.on('error', reject);
  });
}
