// The seeded multi-client fuzz (issue 5, invariants 1–5), first half of the seeds and the pinned ones;
// the second half is fuzz-2.test.ts. What it does and its settings: helpers/fuzz-file.ts.
import { fuzzFile } from './helpers/fuzz-file.ts';

fuzzFile(1);
