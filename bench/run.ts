// `npm run bench`: builds nothing itself (run `npm run build` first for row 8), starts a throwaway
// stack, measures, prints one table and appends it with the date and machine to bench/RESULTS.md.
// Rows 1–7 and 9 (browser rows) are not measured yet; see bench/RESULTS.md.
import { appendFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { startTestStack } from '../tests/helpers/stack.ts';
import { bundleRows } from './bundle-size.ts';
import { fanoutRow, insertRows } from './stack-throughput.ts';
import { renderTable, type BenchRow } from './table.ts';

const rows: BenchRow[] = [];
try {
  rows.push(...(await bundleRows()));
} catch (err) {
  console.warn(`row 8 skipped (run npm run build first): ${(err as Error).message}`);
}
const stack = await startTestStack({ seed: false });
try {
  rows.push(await insertRows(stack));
  rows.push(await fanoutRow(stack));
} finally {
  await stack.destroy();
}
const table = renderTable(rows);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
console.log(`\n${table}\n`);
await appendFile('bench/RESULTS.md', `\n## ${new Date().toISOString()} — ${machine}\n\n${table}\n`);
