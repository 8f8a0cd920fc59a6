#!/usr/bin/env node
// Puts the browser-coverage collector into another checkout (issue 42, session 37: "before" is an
// older commit that predates it): copies e2e/coverage-collect.ts and adds the one conditional import
// to its e2e/playwright.config.ts, right after the config's `import { defineConfig }` line. No
// journey is touched, whatever the old ones look like. Running it twice changes nothing more.
//   node scripts/e2e-coverage/apply.mjs <checkout>
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const target = resolve(process.argv[2] ?? '');
const here = resolve(import.meta.dirname, '../..');
copyFileSync(join(here, 'e2e/coverage-collect.ts'), join(target, 'e2e/coverage-collect.ts'));
const configPath = join(target, 'e2e/playwright.config.ts');
const config = readFileSync(configPath, 'utf8');
const hook = "if (process.env.E2E_COVERAGE) await import('./coverage-collect.ts');";
if (!config.includes(hook)) {
  const anchor = config.match(/^import \{[^}]*\bdefineConfig\b[^}]*\} from '@playwright\/test';\n/m);
  if (!anchor) throw new Error(`${configPath}: no \`import { defineConfig } from '@playwright/test'\` line to put the hook after`);
  const at = anchor.index + anchor[0].length;
  writeFileSync(configPath, `${config.slice(0, at)}\n// Added by scripts/e2e-coverage/apply.mjs (browser coverage, issue 42).\n${hook}\n${config.slice(at)}`);
}
console.log(`collector applied to ${target}`);
