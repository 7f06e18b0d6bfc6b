import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../db/start-worker.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import type { SendReply, SendRequest, SenderThreadOptions } from './webhook-sender-thread.js';

interface Waiting {
  resolve(result: SendResult): void;
  reject(error: Error): void;
  startedAt: number;
}

type Queued = { request: SendRequest; waiting: Waiting };

const failed = (error: string, waiting: Waiting): SendResult => ({ status: null, body: null, retryAfter: undefined, error, durationMs: Math.round(performance.now() - waiting.startedAt) });

/** One sender thread and the sends it holds. Once it has stopped, whatever it held has failed and it takes nothing more. */
class SenderThread {
  private readonly worker: Worker;
  private readonly holding = new Map<number, Waiting>();
  /** What it threw, when it died of an uncaught error. */
  private thrown: string | null = null;
  stopped = false;

  /** `onDied`: it stopped without being asked to (an uncaught error, killed). */
  constructor(options: SenderThreadOptions, onDied: (why: string) => void) {
    this.worker = startWorker('webhook-sender-thread', options, import.meta.url);
    // Held open only while it holds sends (`post`): an idle thread never keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (text: string) => {
      for (const reply of JSON.parse(text) as SendReply[]) {
        const waiting = this.holding.get(reply.id);
        if (!waiting) continue;
        this.holding.delete(reply.id);
        if ('result' in reply) waiting.resolve(reply.result);
        else waiting.reject(new Error(reply.thrown));
      }
      if (this.holding.size === 0) this.worker.unref();
    });
    this.worker.on('error', (error) => {
      this.thrown ??= error.message;
    });
    this.worker.on('exit', (code) => {
      if (this.stopped) return;
      this.stopped = true;
      const why = this.thrown === null ? `it exited with code ${code}` : `it threw: ${this.thrown}`;
      this.fail(`the webhook sender's thread stopped (${why}); not known to be delivered`);
      onDied(why);
    });
  }

  post(batch: Queued[]): void {
    if (this.holding.size === 0) this.worker.ref();
    for (const { request, waiting } of batch) this.holding.set(request.id, waiting);
    this.worker.postMessage(JSON.stringify(batch.map((queued) => queued.request)));
  }

  /** Ends the thread; what it holds fails at once with `error`. */
  async stop(error: string): Promise<void> {
    this.stopped = true;
    this.fail(error);
    await this.worker.terminate();
  }

  /** Test-only: ends the thread without telling this object first, so that what follows is what follows a crash. */
  async crash(): Promise<void> {
    await this.worker.terminate();
  }

  private fail(error: string): void {
    for (const waiting of this.holding.values()) waiting.resolve(failed(error, waiting));
    this.holding.clear();
  }
}

/**
 * The webhook sender of `tabula serve` (docs/decisions.md, "Webhooks"): the interface of
 * `createWebhookSender`, whose requests it makes on a worker thread (webhook-sender-thread.ts),
 * so that ten webhooks' requests per write are not made on the event loop that serves the
 * writes. Sends made in one turn of the event loop go to the thread as one message (one JSON
 * text), and their results come back likewise: a message per request, or a structured clone
 * of each, would give the main thread back much of what the thread takes off it. A thread that dies fails the sends it held (the delivery engine
 * records failed attempts and retries them); the next send starts another. The first send
 * starts the thread: a command, which never delivers, never starts one.
 * Name resolution cannot be injected here (a function cannot cross threads): tests that need
 * that use `createWebhookSender`.
 */
export function createThreadedSender(options: SenderThreadOptions & { /** The thread died (not closed): for the log. */ onDied?: (why: string) => void }) {
  const { onDied, ...threadOptions } = options;
  let thread: SenderThread | null = null;
  let queued: Queued[] = [];
  let nextId = 0;
  let closed = false;

  function handOver(): void {
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    if (closed) {
      for (const { waiting } of batch) waiting.resolve(failed('the webhook sender was closed', waiting));
      return;
    }
    try {
      if (!thread || thread.stopped) thread = new SenderThread(threadOptions, (why) => onDied?.(why));
      thread.post(batch);
    } catch (error) {
      // Not started, or the message could not be posted: these sends fail, the next ones try again.
      for (const { waiting } of batch) waiting.resolve(failed(`the webhook sender's thread could not take the request (${error instanceof Error ? error.message : String(error)})`, waiting));
    }
  }

  const sender: WebhookSender & { crashThreadForTest(): Promise<void> } = {
    timeoutMs: threadOptions.timeoutMs,
    send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
      return new Promise((resolve, reject) => {
        nextId += 1;
        if (queued.push({ request: { id: nextId, target, headers, body }, waiting: { resolve, reject, startedAt: performance.now() } }) === 1) setImmediate(handOver);
      });
    },
    /** Ends the thread; sends not settled yet fail at once, and later ones too. */
    async close(): Promise<void> {
      closed = true;
      handOver();
      await thread?.stop('the webhook sender was closed');
    },
    /** Test-only: the thread dies with whatever it holds, as in a crash. */
    async crashThreadForTest(): Promise<void> {
      await thread?.crash();
    },
  };
  return sender;
}

export type ThreadedSender = ReturnType<typeof createThreadedSender>;
