// The house rules on imports, checked on every run rather than by review: layers point down
// (src/ → sw/ → sync/; supabase/ apart; e2e/ never reaches into bench/), and no two real modules
// import each other, directly or round a loop. Type-only imports are erased at build time and
// cannot make a cycle at run time, so they are not counted.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['src', 'sw', 'sync', 'supabase/functions', 'supabase/local', 'e2e', 'bench', 'scripts'];

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'artifacts') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// `import x from './a.ts'`, `import { type A, b } from`, `export * from`, `import './side.ts'`.
const STATIC = /^\s*(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Relative imports of a file that exist at run time, as paths from the repository's root. */
export function valueImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(STATIC)) {
    const [, typeOnly, clause, spec] = m;
    if (typeOnly || !spec!.startsWith('.')) continue;
    const named = clause?.match(/^\{([^}]*)\}$/);
    if (named && named[1]!.split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '))) continue;
    out.push(relative(ROOT, resolve(dirname(file), spec!)));
  }
  for (const m of text.matchAll(DYNAMIC)) if (m[1]!.startsWith('.')) out.push(relative(ROOT, resolve(dirname(file), m[1]!)));
  return out;
}

const graph = new Map<string, string[]>();
for (const folder of FOLDERS) {
  for (const file of sources(join(ROOT, folder))) graph.set(relative(ROOT, file), valueImports(file, readFileSync(file, 'utf8')));
}

/** Strongly connected components of more than one module (Tarjan): each is an import cycle. */
function cycles(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Every import from a module under `from` into a module under one of `into`. */
function crossings(from: string, into: string[]): string[] {
  const out: string[] = [];
  for (const [file, deps] of graph) {
    if (!file.startsWith(`${from}/`)) continue;
    for (const dep of deps) if (into.some((f) => dep.startsWith(`${f}/`))) out.push(`${file} → ${dep}`);
  }
  return out;
}

describe('imports (house style)', () => {
  it('reads the real tree', () => {
    // A glob or regex that silently matched nothing would make every check below pass.
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('src/main.tsx')?.length ?? 0).toBeGreaterThan(0);
  });

  it('the reader sees value imports and skips type-only ones', () => {
    const f = join(ROOT, 'sync/x.ts');
    const text = [
      "import { a, type B } from './a.ts';",
      "import type { C } from './c.ts';",
      "import { type D } from './d.ts';",
      "export * from './e.ts';",
      "import './f.ts';",
      "const g = await import('./g.ts');",
    ].join('\n');
    expect(valueImports(f, text)).toEqual(['sync/a.ts', 'sync/e.ts', 'sync/f.ts', 'sync/g.ts']);
  });

  it('no import cycles between real modules', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
  });

  it('layers point down: sync/ reaches neither sw/ nor src/, sw/ never src/', () => {
    expect(crossings('sync', ['src', 'sw'])).toEqual([]);
    expect(crossings('sw', ['src'])).toEqual([]);
  });

  it('supabase/ stands apart from the client', () => {
    expect(crossings('supabase', ['src', 'sw', 'sync'])).toEqual([]);
  });

  it('e2e/ never imports bench/', () => {
    expect(crossings('e2e', ['bench'])).toEqual([]);
  });
});
