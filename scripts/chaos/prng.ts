// A small seeded PRNG (mulberry32): the same seed gives the same fault stream and action plan.
// The interleaving of browsers and servers is not deterministic, so a seed reproduces the kind of
// run, not every byte of it.
// The generator itself is the benchmark data set's (one implementation for both).
import { mulberry32, type Rng } from '../../bench/prng.ts';

export { intBetween, mulberry32, type Rng } from '../../bench/prng.ts';

/** An independent stream per purpose (proxy, context n, …) derived from one run seed. */
export function substream(seed: number, label: string): Rng {
  let h = seed >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return mulberry32(h);
}
