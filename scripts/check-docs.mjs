#!/usr/bin/env node
// Runs every shell example of docs/api.md, in order, against a fresh server on a temporary data
// directory, and compares each answer with the JSON printed after it (timestamps, keys,
// passwords and request ids are masked). Usage: node scripts/check-docs.mjs [--port 18080]
// (after `npm run build`). Prints one line per example that differs, and exits 1 if any does.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const port = process.argv.includes('--port') ? process.argv[process.argv.indexOf('--port') + 1] : '18080';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-docs-'));
const dataDir = path.join(work, 'data');
const markdown = fs.readFileSync(path.join(root, 'docs/api.md'), 'utf8');

// Blocks in order: shell examples and the JSON answers printed after them.
const blocks = [...markdown.matchAll(/```(sh|bash|json)\n([\s\S]*?)```/g)].map((m) => ({ kind: m[1] === 'json' ? 'json' : 'sh', text: m[2], at: markdown.slice(0, m.index).split('\n').length }));
const examples = [];
for (const [i, block] of blocks.entries()) {
  if (block.kind !== 'sh') continue;
  const next = blocks[i + 1];
  examples.push({ ...block, expected: next?.kind === 'json' ? next.text : null });
}

// The server writes to a file: a pipe nobody reads while the examples run would fill and stall it.
const log = fs.openSync(path.join(work, 'server.log'), 'w');
const server = spawn(process.execPath, [path.join(root, 'dist/main.js'), 'serve', '--port', port, '--data', dataDir], { cwd: work, stdio: ['ignore', log, log], env: { ...process.env, DATABASE_URL: '' } });
for (let waited = 0; !fs.readFileSync(path.join(work, 'server.log'), 'utf8').includes('listening on'); waited += 100) {
  if (waited > 20_000 || server.exitCode !== null) throw new Error(`server did not start: ${fs.readFileSync(path.join(work, 'server.log'), 'utf8')}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const preamble = `set -u\nBASE=http://127.0.0.1:${port}\nnpx() { if [ "$1" = tabula ]; then shift; node ${root}/dist/main.js "$@"; else command npx "$@"; fi; }\n`;
const script = preamble + examples.map((example, i) => `echo "@@${i}@@"\n${example.text.replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`)}\necho`).join('\n');
const run = spawnSync('bash', ['-c', script], { cwd: work, encoding: 'utf8', env: { ...process.env, TABULA_DATA_DIR: dataDir, DATABASE_URL: '' }, maxBuffer: 64 * 1024 * 1024 });
server.kill();
if (process.env.DEBUG_DOCS) console.log(run.stdout.slice(0, 1500), run.stderr.slice(0, 1500));
const outputs = run.stdout.split(/^@@\d+@@$/m).slice(1);

const masks = [
  [/"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"/g, '"<time>"'],
  [/"tbk_[A-Za-z0-9_-]+"/g, '"<key>"'],
  [/"password":\s*"[^"]*"/g, '"password":"<password>"'],
  [/"request_id":\s*"[^"]*"/g, '"request_id":"<id>"'],
  // Stored files get random ids: their paths differ on every run.
  [/\/s(\d+)\/[0-9a-f]{32}-/g, '/s$1/<file id>-'],
];
const normalise = (text) => {
  let value;
  try {
    value = JSON.stringify(JSON.parse(text));
  } catch {
    // Several answers in a row: compared as a list of values.
    try {
      value = JSON.stringify(JSON.parse(`[${text.trim().replace(/\}\s*\{/g, '},{')}]`));
    } catch {
      value = text.trim().replace(/\s+/g, ' ');
    }
  }
  for (const [pattern, replacement] of masks) value = value.replace(pattern, replacement);
  return value;
};

// --print FROM_LINE: show what the examples from that line of api.md answered (to write new ones).
const printFrom = process.argv.includes('--print') ? Number(process.argv[process.argv.indexOf('--print') + 1]) : Infinity;
for (const [i, example] of examples.entries()) if (example.at >= printFrom) console.log(`--- docs/api.md:${example.at}\n${example.text}>>>\n${outputs[i]}`);

let differences = 0;
for (const [i, example] of examples.entries()) {
  if (example.expected === null) continue;
  const got = normalise(outputs[i] ?? '');
  const want = normalise(example.expected);
  if (got !== want) {
    differences++;
    console.log(`docs/api.md:${example.at}: differs\n  printed: ${want.slice(0, 300)}\n  answered: ${got.slice(0, 300)}`);
  }
}
console.log(`${examples.length} examples run, ${examples.filter((e) => e.expected !== null).length} with a printed answer, ${differences} differ`);
fs.rmSync(work, { recursive: true, force: true });
process.exit(differences > 0 ? 1 : 0);
