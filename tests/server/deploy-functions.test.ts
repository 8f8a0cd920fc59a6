// Issue 17 item 2: every function deploys as `supabase functions deploy` uploads it. For each
// function, only the files the CLI would upload (deploy-upload.ts: the entrypoint, what it reaches by
// relative imports, the import map config.toml names) are copied into an empty directory and
// type-checked there with `deno check` and that import map, so a bare import the map does not
// resolve, or a relative import of a file outside supabase/functions, fails here rather than on the
// platform.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { deployUpload, functionSections, type Upload } from './deploy-upload.ts';

const run = promisify(execFile);
const repoRoot = process.cwd();
const deno = join(repoRoot, 'node_modules', '.bin', 'deno');
const work = mkdtempSync(join(tmpdir(), 'poradna-deploy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const slugs = readdirSync(join(repoRoot, 'supabase', 'functions'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();

/**
 * Copies each upload into its own fresh directory and type-checks the entrypoints with deno there;
 * resolves to deno's output on failure. Uploads whose import maps have the same content are checked
 * in one deno run (import maps apply to every module of a run; one run is ~15× faster than one per
 * function on this machine), each tree still holding only its own uploaded files.
 */
async function checkUploads(root: string, uploads: Upload[]): Promise<string | undefined> {
  const groups = new Map<string, { config: string | undefined; entries: string[] }>();
  for (const upload of uploads) {
    const dir = join(work, `${upload.slug}-${Math.random().toString(36).slice(2, 8)}`);
    for (const f of upload.files) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      cpSync(join(root, f), join(dir, f));
    }
    const key = upload.importMap ? readFileSync(join(root, upload.importMap), 'utf8') : '';
    const group = groups.get(key) ?? { config: upload.importMap && join(dir, upload.importMap), entries: [] };
    group.entries.push(join(dir, 'supabase', 'functions', upload.slug, 'index.ts'));
    groups.set(key, group);
  }
  const out: string[] = [];
  for (const { config, entries } of groups.values()) {
    const args = ['check', '--quiet', '--no-lock', ...(config ? ['--config', config] : []), ...entries];
    try {
      await run(deno, args, { cwd: work, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }, timeout: 300_000 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      out.push(`${e.stderr ?? ''}${e.stdout ?? ''}` || e.message);
    }
  }
  return out.length ? out.join('\n') : undefined;
}

describe('functions deploy from what the CLI uploads', () => {
  it('every function folder has a config.toml section naming an existing import map', () => {
    const sections = functionSections(join(repoRoot, 'supabase', 'config.toml'));
    for (const slug of slugs) {
      expect(sections.get(slug)?.get('import_map'), slug).toEqual(expect.any(String));
      expect(deployUpload(repoRoot, slug).importMap, slug).toBeDefined();
    }
  });

  it('no function imports a file outside supabase/functions', () => {
    for (const slug of slugs) expect(deployUpload(repoRoot, slug).escapes, slug).toEqual([]);
  });

  it('every function type-checks from its uploaded files alone', { timeout: 300_000 }, async () => {
    const uploads = slugs.map((slug) => deployUpload(repoRoot, slug));
    for (const u of uploads) expect(u.files, u.slug).toContain(`supabase/functions/${u.slug}/index.ts`);
    expect(await checkUploads(repoRoot, uploads)).toBeUndefined();
  });

  it('catches a function whose import map would not be uploaded (the check can fail)', { timeout: 120_000 }, async () => {
    // A copy of the repository's supabase/ folder whose config.toml has no import_map lines: the CLI
    // then finds no map for the function, and its bare '@supabase/supabase-js' import cannot resolve.
    const repo = mkdtempSync(join(work, 'nomap-'));
    cpSync(join(repoRoot, 'supabase', 'functions'), join(repo, 'supabase', 'functions'), { recursive: true });
    const toml = readFileSync(join(repoRoot, 'supabase', 'config.toml'), 'utf8').replace(/^import_map\s*=.*$/gm, '');
    writeFileSync(join(repo, 'supabase', 'config.toml'), toml);
    const upload = deployUpload(repo, 'ensure-first-conversation');
    expect(upload.importMap).toBeUndefined();
    expect(await checkUploads(repo, [upload])).toMatch(/supabase-js/);
  });
});
