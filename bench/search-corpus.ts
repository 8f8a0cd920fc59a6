// The search benchmark's corpus (issue 40): Slovak-ish marketing chat messages with diacritics,
// inflected forms (kampaň, kampane, kampaňou …), figures, links and names, drawn from a seeded PRNG
// with a Zipf-like word frequency so common words are common and rare ones rare, as in real chats.
import { intBetween, mulberry32, type Rng } from './prng.ts';

const STEMS: [string, string[]][] = [
  ['kampaň', ['kampaň', 'kampane', 'kampani', 'kampaňou', 'kampaní', 'kampaniam']],
  ['rozpočet', ['rozpočet', 'rozpočtu', 'rozpočtom', 'rozpočty', 'Rozpočet']],
  ['návrh', ['návrh', 'návrhu', 'návrhy', 'návrhom', 'návrhov']],
  ['klient', ['klient', 'klienta', 'klientovi', 'klienti', 'klientov']],
  ['termín', ['termín', 'termínu', 'termíny', 'termínom']],
  ['príspevok', ['príspevok', 'príspevku', 'príspevky', 'príspevkov']],
  ['reklama', ['reklama', 'reklamy', 'reklamu', 'reklamou', 'reklám']],
  ['analýza', ['analýza', 'analýzy', 'analýzu', 'analýzou']],
  ['značka', ['značka', 'značky', 'značku', 'značkou']],
  ['publikum', ['publikum', 'publika', 'publiku']],
  ['konverzia', ['konverzia', 'konverzie', 'konverziu', 'konverzií']],
  ['faktúra', ['faktúra', 'faktúry', 'faktúru', 'faktúrou']],
  ['stretnutie', ['stretnutie', 'stretnutia', 'stretnutí']],
  ['prezentácia', ['prezentácia', 'prezentácie', 'prezentáciu']],
  ['zmluva', ['zmluva', 'zmluvy', 'zmluvu']],
  ['brief', ['brief', 'briefu', 'briefom']],
  ['vizuál', ['vizuál', 'vizuálu', 'vizuály', 'vizuálov']],
  ['štatistika', ['štatistika', 'štatistiky', 'štatistiku']],
  ['ľudia', ['ľudia', 'ľudí', 'ľuďom']],
  ['súťaž', ['súťaž', 'súťaže', 'súťaži', 'súťažou']],
];
const FILLER = [
  'a', 'je', 'to', 'na', 'v', 'sa', 'že', 'do', 'ale', 'aj', 'som', 'pre', 'by', 'ste', 'už', 'len', 'ešte', 'keď', 'môžeme',
  'prosím', 'ďakujem', 'zajtra', 'dnes', 'týždeň', 'pondelok', 'piatok', 'posielam', 'pozrite', 'pošlem', 'skontrolujte',
  'hotové', 'upravené', 'schválené', 'mesačný', 'nový', 'finálny', 'Facebook', 'Instagram', 'Google', 'TikTok', 'LinkedIn',
  'newsletter', 'SEO', 'PPC', 'banner', 'landing', 'web', 'e-mail', 'výkon', 'cieľ', 'otázka', 'odpoveď', 'report', 'leady',
  'čísla', 'úprava', 'dôležité', 'rýchlo', 'ďalší', 'celkový', 'jún', 'júl', 'máj', 'september', 'október', 'november',
];
const RARE = ['Žilina', 'Košice', 'Bratislava', 'Prešov', 'Nitra', 'Tatra', 'Kofola', 'Slovnaft', 'Orava', 'Poprad', 'Trenčín', 'Zvolen'];

function zipf(rng: Rng, n: number): number {
  // Index in 0..n-1, low indices far more likely (inverse-power draw).
  return Math.min(n - 1, Math.floor(n * Math.pow(rng(), 2.2)));
}

function word(rng: Rng): string {
  const r = rng();
  if (r < 0.1) {
    const [, forms] = STEMS[Math.floor(rng() * STEMS.length)]!;
    return forms[Math.floor(rng() * forms.length)]!;
  }
  if (r < 0.9) return FILLER[zipf(rng, FILLER.length)]!;
  if (r < 0.95) return RARE[Math.floor(rng() * RARE.length)]!;
  if (r < 0.98) return `${intBetween(rng, 1, 99)} ${intBetween(rng, 0, 9)}00 €`;
  return `https://example.sk/${['brief', 'plan', 'report', 'vizual'][Math.floor(rng() * 4)]}-${intBetween(rng, 1, 999)}`;
}

export interface CorpusMessage {
  key: string;
  text: string;
}

export function searchCorpus(count: number, seed = 40): CorpusMessage[] {
  const rng = mulberry32(seed);
  const out: CorpusMessage[] = [];
  for (let i = 0; i < count; i++) {
    const n = intBetween(rng, 2, 28);
    const words = Array.from({ length: n }, () => word(rng));
    out.push({ key: `s:${i}`, text: words.join(' ').replace(/^./, (c) => c.toUpperCase()) + '.' });
  }
  return out;
}

/** Prefix and folded queries a member types: one and two words, partial last words. */
export const SEARCH_QUERIES = ['kampan', 'rozpocet', 'Rozpočet', 'navrh kl', 'fakt', 'zilina', 'stretn', 'suta', 'ludi', 'prezentaci', 'zmluv', 'kofola', 'brief', 'vizual', 'stat', 'konverzie', 'kampane tik', 'report', 'kosice', 'nov'];
