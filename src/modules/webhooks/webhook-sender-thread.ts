import { parentPort, workerData } from 'node:worker_threads';
import { createWebhookSender, type SenderOptions, type SendResult } from './webhook-sender.js';

/** What the thread is started with: the sender's options that can cross threads (a `lookup` function cannot). */
export type SenderThreadOptions = Omit<SenderOptions, 'lookup'>;

/** One POST handed to the thread. */
export interface SendRequest {
  id: number;
  target: string;
  headers: Record<string, string>;
  body: string;
}

/** What came of one: its result, or what `send` threw (the main thread throws it again). */
export type SendReply = { id: number; result: SendResult } | { id: number; thrown: string };

/**
 * The thread of the threaded webhook sender (threaded-sender.ts): today's sender, with its address
 * policy, time budget, 4 KB cap and kept-alive connections, on an event loop of its own. Messages
 * come as batches of requests; results go back as batches too, one per turn of this thread's
 * loop (`setImmediate`), however many answers that turn read. Both are JSON text: a string
 * crosses threads for a fraction of what the structured clone of the same objects costs.
 */
function serve(): void {
  const port = parentPort!;
  const sender = createWebhookSender(workerData as SenderThreadOptions);
  let ready: SendReply[] = [];
  const flush = () => {
    const replies = ready;
    ready = [];
    port.postMessage(JSON.stringify(replies));
  };
  const reply = (answer: SendReply) => {
    if (ready.push(answer) === 1) setImmediate(flush);
  };
  port.on('message', (text: string) => {
    for (const { id, target, headers, body } of JSON.parse(text) as SendRequest[]) {
      sender.send(target, headers, body).then(
        (result) => reply({ id, result }),
        (error: unknown) => reply({ id, thrown: error instanceof Error ? error.message : String(error) }),
      );
    }
  });
}

serve();
