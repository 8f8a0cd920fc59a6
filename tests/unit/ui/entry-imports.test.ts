// The login's critical JavaScript (src/routes/README.md): what src/main.tsx reaches through static
// imports is what the entry chunk holds. It must not reach supabase-js, Dexie, XState or the sync
// engine; those load as their own chunks (auth/lazy-supabase.ts, routes/signed-in-loader.tsx).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Static value imports and re-exports of a module (type-only imports and import() are not followed). */
export function staticSpecifiers(source: string): string[] {
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(?!type\b)([^;]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(re)) {
    const spec = m[2] ?? m[3];
    if (spec) out.push(spec);
  }
  return out;
}

function reach(entry: string, skip: (file: string) => boolean = () => false): { files: Set<string>; packages: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  /** The package specifiers as written ('date-fns/lightFormat'), to tell a package's parts apart. */
  const bare = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (files.has(file) || skip(file)) continue;
    files.add(file);
    for (const spec of staticSpecifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        if (!/\.(ts|tsx)$/.test(spec)) continue; // css
        stack.push(resolve(dirname(file), spec));
      } else {
        bare.add(spec);
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  }
  return { files, packages, bare };
}

describe('entry chunk', () => {
  const { files, packages } = reach(resolve(ROOT, 'src/main.tsx'));
  const rel = [...files].map((f) => f.slice(ROOT.length + 1));

  it('reads static imports, not type imports or dynamic ones', () => {
    const src = "import type { A } from 'x';\nimport { b } from './b.ts';\nexport { c } from \"c\";\nconst d = () => import('./d.ts');\nimport './e.css';";
    expect(staticSpecifiers(src)).toEqual(['./b.ts', 'c', './e.css']);
  });

  it('holds React and the router, not supabase-js, Dexie or XState', () => {
    expect(packages).toContain('react-dom');
    expect(packages).toContain('react-router-dom');
    for (const heavy of ['@supabase/supabase-js', '@supabase/auth-js', '@supabase/realtime-js', 'dexie', 'dexie-react-hooks', 'xstate']) {
      expect(packages, heavy).not.toContain(heavy);
    }
  });

  it('does not reach the supabase client, the sync engine or the signed-in area', () => {
    expect(rel).toContain('src/routes/router.tsx');
    for (const lazy of ['src/supabase.ts', 'sync/engine.ts', 'src/data/SyncProvider.tsx', 'src/routes/SignedInArea.tsx', 'src/pages/chats/ChatsPage.tsx']) {
      expect(rel, lazy).not.toContain(lazy);
    }
  });
});

describe('signed-in chunk (what the chat list needs before it paints)', () => {
  // The online-only baseline's modules are dropped from the default build by a constant
  // (bench/check-online-only.ts checks the built files), so they are not followed here.
  const { files, packages } = reach(resolve(ROOT, 'src/routes/signed-in.tsx'), (f) => f.includes('/src/data/online-only/'));
  const rel = [...files].map((f) => f.slice(ROOT.length + 1));

  it('reads IndexedDB (Dexie) but holds neither supabase-js nor XState: those load with the engine, after the list can paint', () => {
    expect(packages).toContain('dexie');
    expect(packages).toContain('dexie-react-hooks');
    for (const heavy of ['@supabase/supabase-js', '@supabase/auth-js', '@supabase/realtime-js', '@supabase/postgrest-js', 'xstate']) {
      expect(packages, heavy).not.toContain(heavy);
    }
    for (const lazy of ['src/supabase.ts', 'sync/engine.ts', 'sync/machine.ts']) expect(rel, lazy).not.toContain(lazy);
    expect(rel).toContain('src/pages/chats/ConversationsScreen.tsx');
  });
});

describe('first paint of /app/chats: the entry and the signed-in chunk together (bench row 8a)', () => {
  // Row 8a went from 168 to 175 KB gzip over issue 38–40's merges (bench/RESULTS.md, 2026-11-29): the
  // whole text catalogue, date-fns for the rows' dates, a photo's canvas preparation, the notifications
  // prompt and the desktop's empty pane each came in through one static import. They load later now;
  // a module of the chat or the search reaching the list's graph again is named here.
  const entry = reach(resolve(ROOT, 'src/main.tsx'));
  const signedIn = reach(resolve(ROOT, 'src/routes/signed-in.tsx'), (f) => f.includes('/src/data/online-only/'));
  const rel = [...entry.files, ...signedIn.files].map((f) => f.slice(ROOT.length + 1));
  const bare = new Set([...entry.bare, ...signedIn.bare]);

  it("paints with the shell texts, not the whole catalogue, and with date-fns' lightFormat only (no locale)", () => {
    expect(rel).toContain('src/text/sk-shell.ts');
    expect(rel).not.toContain('src/text/sk.ts');
    expect([...bare].filter((s) => s === 'date-fns' || s.startsWith('date-fns/'))).toEqual(['date-fns/lightFormat']);
  });

  it("leaves the chat, the search, a photo's preparation, the notifications prompt and the empty pane to later chunks", () => {
    for (const later of ['src/pages/chat/attachments/prepare-image.ts', 'src/pwa/push-prompt.ts', 'src/pages/chats/EmptyChatPane.tsx']) {
      expect(rel, later).not.toContain(later);
    }
    // Of the chat's code only what a conversation row shows (its draft, who answers and since when).
    expect(rel.filter((f) => f.startsWith('src/pages/chat/')).sort()).toEqual(['src/pages/chat/drafts.ts', 'src/pages/chat/message-time.ts', 'src/pages/chat/owner-label.ts']);
    // Of the search only the idle start of its worker (R15.4) and the drop of its database.
    expect(rel.filter((f) => f.startsWith('src/search/') || f.startsWith('sync/search/')).sort()).toEqual(['src/search/start.ts', 'sync/search/drop.ts']);
  });
});
