import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { serviceWorkerPlugin } from './sw/build-plugin.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), serviceWorkerPlugin()],
  resolve: {
    // The app uses no Supabase Storage; supabase-js only constructs the client (bench row 8).
    alias: { '@supabase/storage-js': fileURLToPath(new URL('./src/vendor/storage-js-stub.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    // Maps are written for debugging but not linked from the bundles (no sourceMappingURL), and the
    // stack serves *.map only with SOURCE_MAPS=1 (supabase/local/gateway/static-web.ts).
    sourcemap: 'hidden',
    // dist/.vite/manifest.json: bench/bundle-size.ts reads which chunks /app/chats needs from it.
    manifest: true,
    target: 'es2022',
  },
  server: {
    // `npm run dev` proxies the API to a running stack (npm start) on 8080, which binds 127.0.0.1.
    proxy: {
      '/auth/v1': 'http://127.0.0.1:8080',
      '/rest/v1': 'http://127.0.0.1:8080',
      '/functions/v1': 'http://127.0.0.1:8080',
      '/realtime/v1': { target: 'ws://127.0.0.1:8080', ws: true },
      '/env.js': 'http://127.0.0.1:8080',
      '/_dev': 'http://127.0.0.1:8080',
    },
  },
});
