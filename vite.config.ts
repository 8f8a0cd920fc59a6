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
    sourcemap: true,
    // dist/.vite/manifest.json: bench/bundle-size.ts reads which chunks /app/chats needs from it.
    manifest: true,
    target: 'es2022',
  },
  server: {
    // `npm run dev` proxies the API to a running stack (npm start) on 8080.
    proxy: {
      '/auth/v1': 'http://localhost:8080',
      '/rest/v1': 'http://localhost:8080',
      '/functions/v1': 'http://localhost:8080',
      '/realtime/v1': { target: 'ws://localhost:8080', ws: true },
      '/env.js': 'http://localhost:8080',
      '/_dev': 'http://localhost:8080',
    },
  },
});
