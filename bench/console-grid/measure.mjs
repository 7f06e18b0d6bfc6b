// Serves the built pages with vite preview and measures each grid in Chromium.
import { chromium } from 'playwright-core';
import { preview } from 'vite';
const server = await preview({ preview: { port: 0, host: '127.0.0.1' } });
const base = server.resolvedUrls.local[0];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-precise-memory-info'] });
for (const name of ['glide', 'virtual', 'glide', 'virtual', 'glide', 'virtual']) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${base}${name}.html`);
  await page.waitForFunction(() => window.__marks.first !== undefined);
  const first = await page.evaluate(() => window.__marks.first);
  const scrollAt = await page.evaluate(() => { const t = performance.now(); window.__scrollMiddle(); return t; });
  await page.waitForFunction(() => window.__marks.middle !== undefined);
  const middle = (await page.evaluate(() => window.__marks.middle)) - scrollAt;
  // Scroll through 20,000 rows in steps, then read the heap.
  await page.evaluate(async () => { const s = document.querySelector('.dvn-scroller') ?? document.getElementById('scroller'); for (let i = 0; i < 80; i++) { s.scrollTop += 250 * 32; await new Promise((r) => requestAnimationFrame(() => r())); } });
  await cdp.send('HeapProfiler.collectGarbage');
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize').value / 1024 / 1024;
  const nodes = metrics.find((m) => m.name === 'Nodes').value;
  console.log(`${name.padEnd(8)} first paint ${first.toFixed(0)} ms, middle paint ${middle.toFixed(0)} ms after scroll, heap ${heap.toFixed(1)} MB, DOM nodes ${nodes}`);
  await page.close();
}
await browser.close();
server.httpServer.close();
