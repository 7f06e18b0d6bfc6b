/**
 * The files floor: a bare node:http server that does what every file shape comes down to,
 * the file's own bytes to or from the same disk, and nothing else (no JSON, no base64, no
 * auth, no database). `POST /upload` streams the request body into a new file; `GET
 * /download/<name>` streams a file of its directory back with its length.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const directory = process.env.BENCH_FILES_FLOOR_DIR!;
fs.mkdirSync(path.join(directory, 'uploads'), { recursive: true });
let uploaded = 0;

async function answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const url = request.url ?? '';
  if (request.method === 'POST' && url.startsWith('/upload')) {
    uploaded += 1;
    const file = path.join(directory, 'uploads', `${process.pid}-${uploaded}.bin`);
    await pipeline(request, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    const body = JSON.stringify({ ok: true, file: path.basename(file) });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
    return;
  }
  if (request.method === 'GET' && url.startsWith('/download/')) {
    request.resume();
    const file = path.join(directory, path.basename(url.slice('/download/'.length)));
    const { size } = await fs.promises.stat(file);
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
    await pipeline(fs.createReadStream(file), response);
    return;
  }
  request.resume();
  response.writeHead(404);
  response.end();
}

const server = http.createServer((request, response) => {
  answer(request, response).catch((error: Error) => {
    if (!response.headersSent) response.writeHead(500);
    response.end(error.message);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
