// Vite plugin: after the app bundle is written, compiles sw/sw.ts to dist/sw.js and injects the
// precache manifest with workbox-build (injectManifest). Chunks made only of admin modules (src/admin/,
// the admin texts and the route module that loads them, src/routes/AdminArea.tsx) are left out of the precache: the
// admin area is an online tool. Every other chunk is precached, so each user-area chunk the entry
// loads lazily (supabase-js, the signed-in area, the pages) is there offline.
import { join } from 'node:path';
import { build } from 'esbuild';
import { injectManifest } from 'workbox-build';
import type { Plugin } from 'vite';
import { PRECACHE_IGNORE, SNAPSHOT_BOOT_PATH } from './config.ts';

const ADMIN_FILES = ['/src/routes/AdminArea.tsx', '/src/text/admin.ts'];
const isAdminModule = (id: string) => id.includes('/src/admin/') || ADMIN_FILES.some((f) => id.endsWith(f));

export function serviceWorkerPlugin(): Plugin {
  const adminOnly = new Set<string>();
  let outDir = 'dist';
  return {
    name: 'poradna-service-worker',
    apply: 'build',
    configResolved(cfg) {
      outDir = cfg.build.outDir;
    },
    generateBundle(_opts, bundle) {
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk' || out.isEntry) continue;
        const ids = Object.keys(out.modules);
        if (ids.length > 0 && ids.every(isAdminModule)) adminOnly.add(out.fileName);
      }
    },
    async closeBundle() {
      const swDest = join(outDir, 'sw.js');
      await build({
        entryPoints: [join(import.meta.dirname, 'sw.ts')],
        bundle: true,
        format: 'iife',
        target: 'es2022',
        minify: true,
        outfile: swDest,
        define: { 'process.env.NODE_ENV': '"production"' },
        logLevel: 'warning',
      });
      // The snapshot page's loader: an external file because the app runs no inline script (CSP).
      await build({
        entryPoints: [join(import.meta.dirname, 'snapshot-boot.ts')],
        bundle: true,
        format: 'iife',
        target: 'es2022',
        minify: true,
        outfile: join(outDir, SNAPSHOT_BOOT_PATH),
        logLevel: 'warning',
      });
      const { count, size, warnings } = await injectManifest({
        swSrc: swDest,
        swDest,
        globDirectory: outDir,
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2,ico}'],
        globIgnores: ['sw.js', ...PRECACHE_IGNORE, ...adminOnly],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      });
      for (const w of warnings) console.warn(`service worker: ${w}`);
      console.log(`service worker: ${count} files precached, ${(size / 1024).toFixed(0)} KiB`);
    },
  };
}
