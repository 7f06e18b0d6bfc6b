// After `vite build`: writes .br and .gz copies of the text assets (the server sends them to
// browsers that accept them: @fastify/static's preCompressed), then prints the JavaScript that
// index.html loads before the first paint (its module scripts and module preloads), gzipped,
// and fails the build past the budget of issue 28 (300 KB).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const budgetKb = 300;
const dist = path.resolve(import.meta.dirname, '../dist');

for (const directory of [dist, path.join(dist, 'assets')]) {
  for (const name of fs.readdirSync(directory)) {
    if (!/\.(js|css|svg|json)$/.test(name)) continue;
    const file = path.join(directory, name);
    const content = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
}

const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const urls = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((match) => match[1]);
let gzipped = 0;
for (const url of new Set(urls)) gzipped += zlib.gzipSync(fs.readFileSync(path.join(dist, url))).length;
const kb = gzipped / 1024;
console.log(`console: initial JavaScript ${kb.toFixed(1)} KB gzipped in ${urls.length} file(s) (budget ${budgetKb} KB)`);
if (kb > budgetKb) {
  console.error(`console: initial JavaScript is over its budget of ${budgetKb} KB gzipped`);
  process.exit(1);
}
