// Slovak texts of notifications (the 'Upozornenia' card and the prompt after the first message).
export const pushText = {
  title: 'Upozornenia',
  state: {
    on: 'Zapnuté',
    off: 'Vypnuté',
    blocked: 'Zablokované v prehliadači',
    unsupported: 'Nepodporované',
    'ios-install': 'Nepodporované',
    unavailable: 'Nedostupné',
  },
  stateLabel: 'Stav',
  hint: {
    on: 'Keď ti špecialista odpíše, dáme ti vedieť aj pri zatvorenej aplikácii.',
    off: 'Zapni si upozornenia a dáme ti vedieť, keď ti špecialista odpíše, aj keď je aplikácia zatvorená.',
    blocked:
      'Prehliadač upozornenia pre Poradňu zablokoval. Povoľ ich v nastaveniach stránky (ikona zámky vedľa adresy → Upozornenia → Povoliť) a potom sem zapni upozornenia znova.',
    unsupported: 'Tento prehliadač upozornenia nepodporuje.',
    'ios-install':
      'Na iPhone a iPade fungujú upozornenia iba v aplikácii pridanej na plochu: v Safari ťukni na Zdieľať → Pridať na plochu, otvor Poradňu z plochy a zapni ich tam.',
    unavailable: 'Tento server upozornenia neposiela.',
  },
  turnOn: 'Zapnúť upozornenia',
  turnOff: 'Vypnúť upozornenia',
  turnedOn: 'Upozornenia sú zapnuté',
  turnedOff: 'Upozornenia sú vypnuté',
  refused: 'Prehliadač upozornenia nepovolil',
  failed: 'Upozornenia sa nepodarilo zapnúť. Skús to znova.',
  prompt: 'Chceš vedieť, keď ti špecialista odpíše?',
  promptHint: 'Pošleme ti upozornenie, aj keď bude aplikácia zatvorená.',
  promptYes: 'Zapnúť',
  promptNo: 'Teraz nie',
} as const;
