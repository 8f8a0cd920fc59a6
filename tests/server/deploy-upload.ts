// What `supabase functions deploy` (without Docker) uploads for one function, re-implemented from
// the CLI's behaviour so a test can check a function from those files alone:
//  - the import map: `[functions.<slug>] import_map` in config.toml (relative to supabase/), else
//    <slug>/deno.json, <slug>/deno.jsonc, <slug>/import_map.json, else functions/import_map.json
//    (supabase/cli apps/cli-go/internal/functions/deploy/deploy.go, pkg/config/config.go);
//  - the entrypoint (<slug>/index.ts) and every file reached from it by import/export statements
//    whose specifier, after import-map substitution, is a relative or absolute path with an extension;
//    bare and URL specifiers stay remote (supabase/cli apps/cli-go/pkg/function/deno.go
//    WalkImportPaths, pkg/function/deploy.go writeForm).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, normalize, relative, resolve } from 'node:path';

export interface Upload {
  slug: string;
  /** Repository-relative paths (POSIX), the import map included. */
  files: string[];
  /** Repository-relative path of the import map, if any. */
  importMap: string | undefined;
  /** Relative imports that resolve outside supabase/functions (the platform would not have them). */
  escapes: string[];
}

/** `[functions.<slug>]` → key → raw value (quotes stripped), from a config.toml. */
export function functionSections(configToml: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const raw of readFileSync(configToml, 'utf8').split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').replace(/^#.*$/, '').trim();
    const head = /^\[functions\.([A-Za-z0-9_-]+)\]$/.exec(line);
    if (head) {
      current = new Map();
      sections.set(head[1]!, current);
      continue;
    }
    if (line.startsWith('[')) current = undefined;
    const kv = /^([a-z_]+)\s*=\s*(.+)$/.exec(line);
    if (current && kv) current.set(kv[1]!, kv[2]!.replace(/^"(.*)"$/, '$1'));
  }
  return sections;
}

// The CLI's statement pattern: `import|export [type] {…}|… [from] '<spec>'` or `import('<spec>')`.
const IMPORT_RE = /(?:import|export)\s+(?:type\s+)?(?:\{[^{}]+\}|.*?)\s*(?:from)?\s*['"](.*?)['"]|import\(\s*['"](.*?)['"]\)/gi;

export function deployUpload(repoRoot: string, slug: string): Upload {
  const supabaseDir = join(repoRoot, 'supabase');
  const functionsDir = join(supabaseDir, 'functions');
  const fnDir = join(functionsDir, slug);
  const configured = functionSections(join(supabaseDir, 'config.toml')).get(slug)?.get('import_map');
  const candidates = configured
    ? [resolve(supabaseDir, configured)]
    : ['deno.json', 'deno.jsonc', 'import_map.json'].map((f) => join(fnDir, f)).concat(join(functionsDir, 'import_map.json'));
  const mapFile = candidates.find((f) => existsSync(f));
  if (configured && !mapFile) throw new Error(`${slug}: import_map ${configured} does not exist`);
  const imports = mapFile
    ? ((JSON.parse(readFileSync(mapFile, 'utf8')) as { imports?: Record<string, string> }).imports ?? {})
    : {};

  const seen = new Set<string>();
  const escapes: string[] = [];
  const queue = [join(fnDir, 'index.ts')];
  while (queue.length) {
    const file = normalize(queue.pop()!);
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file)) continue; // the CLI warns and goes on; deno check will then fail
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
      let spec = (m[1] || m[2] || '').trim();
      let substituted = false;
      for (const [k, v] of Object.entries(imports)) {
        if (spec.startsWith(k)) {
          spec = v + spec.slice(k.length);
          substituted = true;
        }
      }
      if (!extname(spec)) continue;
      const rel = spec.startsWith('./') || spec.startsWith('../');
      if (!rel && !spec.startsWith('/')) continue;
      // Import-map targets are relative to the map; other relative specifiers to the importing file.
      const target = rel ? resolve(substituted && mapFile ? dirname(mapFile) : dirname(file), spec) : spec;
      if (relative(functionsDir, target).startsWith('..')) escapes.push(`${relative(repoRoot, file)} → ${spec}`);
      else queue.push(target);
    }
  }
  const toRepo = (f: string) => relative(repoRoot, f).split('\\').join('/');
  return {
    slug,
    files: [...seen].filter((f) => existsSync(f)).map(toRepo).concat(mapFile ? [toRepo(mapFile)] : []),
    importMap: mapFile ? toRepo(mapFile) : undefined,
    escapes,
  };
}
