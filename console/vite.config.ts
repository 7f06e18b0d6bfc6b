import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is served by `tabula serve` on the API's own origin; `npm run dev` proxies the API
// to a server on 127.0.0.1:8080.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every asset stays a file under /assets/: nothing inlined as data: that the CSP would have to allow.
    assetsInlineLimit: 0,
    // No module-preload polyfill: every supported browser has modulepreload.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080' } },
});
