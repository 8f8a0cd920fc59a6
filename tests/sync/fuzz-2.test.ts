// The seeded multi-client fuzz (issue 5, invariants 1–5), second half of the seeds: a file of its own
// so that Vitest runs it beside the first half (helpers/fuzz-file.ts says why).
import { fuzzFile } from './helpers/fuzz-file.ts';

fuzzFile(2);
