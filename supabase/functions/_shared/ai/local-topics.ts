// Topics the built-in responder recognises in a user's message, each with practical Slovak advice.
// Keywords are matched without diacritics, as prefixes of words.
// Titles are in the nominative: the responder writes them as an apposition ('K téme **obsah**'),
// so no template has to decline them.
export interface Topic {
  id: string;
  keywords: string[];
  title: string;
  tips: string[];
}

export const TOPICS: Topic[] = [
  {
    id: 'social',
    keywords: ['social', 'socialn', 'instagram', 'facebook', 'tiktok', 'linkedin', 'prispevk', 'reels', 'influenc'],
    title: 'sociálne siete',
    tips: [
      'Vyberte si 1–2 siete, kde je vaša cieľová skupina naozaj aktívna, a tam buďte pravidelne.',
      'Pripravte si obsahový kalendár na 4 týždne dopredu: 60 % hodnoty, 30 % príbehov, 10 % predaja.',
      'Merajte dosah, uloženia a kliknutia, nie len lajky – po dvoch týždňoch vyhodnoťte, čo funguje.',
    ],
  },
  {
    id: 'ads',
    keywords: ['kampan', 'reklam', 'ppc', 'google ads', 'meta ads', 'inzer', 'cpc'],
    title: 'výkonnostné kampane',
    tips: [
      'Začnite jasným cieľom kampane (napr. 40 dopytov za mesiac) a spätne dopočítajte rozpočet podľa cieľovej ceny za konverziu.',
      'Otestujte aspoň 3 varianty kreatívy a 2 publiká; po 7 dňoch vypnite najslabšie.',
      'Nastavte si meranie konverzií ešte pred spustením – bez neho sa nedá optimalizovať.',
    ],
  },
  {
    // Before 'ads' matched 'konverz', so 'ako zlepšiť konverzný pomer?' got campaign advice.
    id: 'conversion',
    keywords: ['konverz', 'objednav', 'kosik', 'pokladn', 'landing', 'vstupn', 'predajn'],
    title: 'konverzný pomer',
    tips: [
      'Zistite, kde návštevníci odchádzajú: v analytike si pozrite cestu od vstupnej stránky po dokončenú objednávku.',
      'Na každej dôležitej stránke nechajte jednu jasnú výzvu k akcii a odstráňte, čo od nej odvádza pozornosť.',
      'Zjednodušte formulár či košík na minimum polí a pridajte dôveryhodnosť: recenzie, záruky, kontakty.',
      'Zmeny testujte A/B na dostatočnom počte návštev, nie podľa pocitu po dvoch dňoch.',
    ],
  },
  {
    id: 'budget',
    keywords: ['rozpoc', 'budget', 'cena', 'naklad', 'eur', 'peniaz', 'investic'],
    title: 'rozpočet',
    tips: [
      'Rozdeľte rozpočet na overené kanály (70 %), testovanie (20 %) a rezervu (10 %).',
      'Sledujte návratnosť na úrovni kanála aj kampane a prerozdeľujte raz za dva týždne.',
    ],
  },
  {
    id: 'seo',
    // Not plain 'google': 'Google Ads' is a campaign question.
    keywords: ['seo', 'vyhladav', 'googli', 'google search', 'search console', 'klucov', 'organick', 'web', 'stranka', 'blog'],
    title: 'web a vyhľadávanie',
    tips: [
      'Zmapujte 20–30 kľúčových slov, ktoré zákazníci naozaj hľadajú, a priraďte ich konkrétnym stránkam.',
      'Každá dôležitá stránka potrebuje jasný nadpis, popis a odpoveď na otázku, s ktorou návštevník prišiel.',
      'Skontrolujte rýchlosť načítania na mobile – pomalý web stráca návštevníkov aj pozície.',
    ],
  },
  {
    id: 'brand',
    keywords: ['brand', 'znack', 'logo', 'identit', 'komunikac', 'tonalit', 'pozicion'],
    title: 'značka a komunikácia',
    tips: [
      'Sformulujte jednou vetou, pre koho ste a v čom ste iní – z toho vychádza všetka komunikácia.',
      'Spíšte si 3–4 pravidlá tonality (napr. „tykáme, sme priami, nepoužívame žargón“) a zdieľajte ich s tímom.',
    ],
  },
  {
    id: 'email',
    keywords: ['email', 'e-mail', 'newsletter', 'mailing', 'databaz'],
    title: 'e-mailový marketing',
    tips: [
      'Segmentujte databázu aspoň na nových, aktívnych a spiacich kontaktov a píšte každému inak.',
      'Predmet e-mailu testujte A/B na menšej časti databázy, víťaza pošlite zvyšku.',
    ],
  },
  {
    id: 'content',
    keywords: ['obsah', 'content', 'text', 'clanok', 'copy', 'video', 'podcast'],
    title: 'obsah',
    tips: [
      'Každý kus obsahu by mal odpovedať na konkrétnu otázku zákazníka – zbierajte ich od obchodu a podpory.',
      'Jeden silný obsah rozložte do viacerých formátov: článok, 3 príspevky, krátke video a newsletter.',
    ],
  },
];

export function normalize(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export function detectTopics(text: string): Topic[] {
  const words = normalize(text);
  return TOPICS.filter((t) => t.keywords.some((k) => new RegExp(`(^|[^a-z])${k}`).test(words)));
}
