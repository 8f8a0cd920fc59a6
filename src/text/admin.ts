// Every user-visible string of the super-admin area. Texts quoted by admin-area.md are copied
// exactly (Slovak, and English where the spec shows English); the rest is marked "ours".

export const admin = {
  title: 'Admin',
  tabs: {
    accounts: 'Účty',
    tests: 'Testy',
    chatwoot: 'Chatwoot',
    edgeFunctions: 'Edge Funkcie',
    testRunner: 'Testy',
    label: 'Admin sekcie', // ours
    subLabel: 'Testy sekcie', // ours
  },
  toast: {
    error: 'Chyba',
    success: 'Úspech',
  },
  accounts: {
    title: 'Účty', // ours
    search: 'Hľadať podľa názvu alebo e-mailu',
    heading: (n: number) => `Účty (${n})`,
    sortName: 'Názov', // ours
    sortActivity: 'Posledná aktivita', // ours
    sortBy: 'Zoradiť podľa', // ours
    sortAsc: 'vzostupne', // ours
    sortDesc: 'zostupne', // ours
    // The spec's English column and button labels, in Slovak (issue 21 admin item 10).
    colAccount: 'Účet',
    colSpecialists: 'Špecialisti',
    colActivity: 'Posledná aktivita',
    colActions: 'Akcie',
    rowActions: (name: string) => `Akcie pre ${name}`, // ours
    superAdmin: 'Super Admin',
    settings: 'Nastavenia',
    impersonate: 'Impersonovať',
    delete: 'Vymazať',
    noMatch: (q: string) => `Pre „${q}“ sa nenašli žiadne účty`, // ours
    none: 'Zatiaľ neexistujú žiadne účty', // ours
    create: 'Vytvoriť účet',
    loadFailed: 'Nepodarilo sa načítať účty z databázy',
    confirmDeleteTitle: 'Vymazať používateľa?', // ours: the delete dialog's title (issue 37 admin 4)
    confirmDelete: (email: string) => `Naozaj chcete vymazať používateľa ${email} a všetky jeho dáta?`,
    deleted: (email: string) => `Používateľ ${email} bol úspešne vymazaný`,
    deleteFailed: (message: string) => `Nepodarilo sa vymazať používateľa: ${message}`,
    impersonating: (name: string) => `Impersonácia aktivovaná: ${name}`, // ours (the spec: mentions the name)
    impersonateFailed: 'Nepodarilo sa aktivovať impersonáciu',
    never: '—', // ours
  },
  settings: {
    title: (name: string) => `Nastavenia účtu: ${name}`, // the spec's 'Account settings', in Slovak (issue 21)
    documentTitle: 'Nastavenia účtu',
    plan: 'Plán', // ours
    currentPlan: 'Aktuálny plán', // ours
    assignedCount: 'Priradení špecialisti', // ours
    selectPlan: 'Vybrať plán', // ours
    planOption: (code: string, name: string) => `${code} - ${name}`,
    // Issue 36 N5: what the selected plan allows of AI replies (the database enforces it).
    planAiLimits: 'AI odpovede', // ours
    planAiLimitsText: (perUserHour: number, perAccountDay: number) =>
      `najviac ${perUserHour} za hodinu na používateľa a ${perAccountDay} za deň na účet; nad limit sa správa uloží a používateľ dostane oznámenie, že odpoveď nepríde`, // ours
    save: 'Uložiť zmeny', // the spec's 'Save changes', in Slovak (issue 21)
    saving: 'Ukladá sa…', // the spec's 'Saving...'
    info: 'Informácie o účte', // ours
    ownerEmail: 'E-mail vlastníka', // ours
    created: 'Vytvorený', // ours
    specialists: 'Správa špecialistov', // ours
    modeDefault: 'Default',
    modeCustom: 'Custom',
    switchLabel: 'Default režim', // ours
    // Turning Default off asks first (issue 21 admin item 8): Custom keeps only the explicit links.
    confirmCustomTitle: 'Vypnúť Default režim?', // ours
    confirmCustomText: (active: number) =>
      `Teraz má účet ${active} ${active === 1 ? 'špecialistu' : 'špecialistov'} z plánu. V Custom režime budú priradení len ručne vybraní špecialisti.`, // ours
    confirmCustomKeeps: 'Počet špecialistov, ktorí zostanú priradení', // ours
    confirmCustomOk: 'Vypnúť Default režim', // ours
    confirmCancel: 'Zrušiť', // ours
    noteDefault: 'Špecialisti sa priraďujú automaticky podľa plánu účtu.', // ours
    noteCustom: 'Špecialisti sú vybraní ručne. Zaškrtnite tých, ktorí majú byť priradení.', // ours
    search: 'Hľadať podľa mena, roly alebo seniority', // ours
    ai: 'AI',
    noSpecialists: 'V systéme neexistujú žiadni špecialisti', // ours
    noSpecialistMatch: 'Žiadny špecialista nezodpovedá hľadaniu', // ours
    notFound: 'Účet neexistuje alebo k nemu nemáte prístup', // ours
    backToList: 'Späť na zoznam', // ours
    loadFailed: 'Nepodarilo sa načítať údaje. Skúste to znova.',
    planChanged: (code: string) => `Plán účtu bol úspešne zmenený na ${code}`,
    planFailed: 'Nepodarilo sa zmeniť plán. Skúste to znova.',
    assigned: 'Špecialista bol úspešne priradený k účtu',
    unassigned: 'Špecialista bol odstránený z účtu',
    assignFailed: 'Nepodarilo sa zmeniť priradenie. Skúste to znova.',
    modeChanged: (mode: 'Default' | 'Custom') => `Účet teraz používa ${mode} režim`,
    modeFailed: 'Nepodarilo sa zmeniť režim. Skúste to znova.',
  },
  chatwoot: {
    title: 'Chatwoot', // ours
    settings: 'Nastavenia', // ours
    apiBaseUrl: 'API URL Chatwootu (API Base URL)', // issue 21 admin 10
    accountId: 'ID účtu v Chatwoote (Account ID)', // issue 21 admin 10
    urlInvalid: 'API URL nie je platná adresa. Zadajte celú adresu, napr. https://chatwoot.example.com', // issue 21 admin 9
    accountIdInvalid: 'Account ID musí byť kladné celé číslo (číslo účtu v Chatwoote).', // issue 21 admin 9
    save: 'Uložiť', // ours
    edit: 'Upraviť', // ours
    cancel: 'Zrušiť', // ours
    required: 'Vyplňte všetky povinné polia',
    saved: 'Konfigurácia uložená', // ours
    saveFailed: 'Nepodarilo sa uložiť konfiguráciu',
    webhook: 'Adresa webhooku', // issue 21 admin 10
    webhookNote: 'Chatwoot musí volať túto adresu s parametrom ?secret= (hodnota CHATWOOT_WEBHOOK_SECRET), inak server požiadavku odmietne. Tajomstvo musí mať aspoň 24 znakov.', // ours
    copy: 'Kopírovať', // ours
    copied: 'Skopírované', // ours
    controlPanel: 'Kontrolný panel', // issue 21 admin 10
    runAll: 'Spustiť všetky kontroly', // ours
    check: 'Skontrolovať', // ours
    checks: {
      api: 'API',
      webhook: 'Webhook',
      schema: 'Schéma', // ours
      specialists: 'Špecialisti', // ours
      richContent: 'Rich obsah', // issue 21 admin 10
    },
    statuses: { unchecked: 'Nekontrolované', checking: 'Kontrolujem…', ok: 'OK', warning: 'Varovanie', error: 'Chyba', notConfigured: 'Nenakonfigurované' }, // ours
    apiOk: (n: number) => `API OK (${n} inboxov)`,
    apiUnreachable: 'Edge funkcia je nedostupná, nie je nasadená alebo chýbajú secrets', // ours
    apiUnauthorized: 'Neoprávnený prístup', // ours
    apiChatwoot: (message: string) => `Problém s Chatwoot API: ${message}`, // ours
    apiError: (message: string) => `Chyba API: ${message}`, // ours
    apiUnexpected: 'Neočakávaná odpoveď API', // ours
    networkError: (message: string) => `Chyba siete: ${message}`, // ours
    webhookOk: (status: number) => `Webhook odpovedá (${status})`, // ours
    webhookFailed: (status: string) => `Webhook neodpovedá (${status})`, // ours
    webhookProblem: (message: string) => `Webhook odmietne doručenia: ${message}`, // issue 21 admin 4
    notConfiguredText: 'Integrácia nie je nakonfigurovaná; nepočíta sa ako chyba.', // issue 21 admin 11
    schemaOk: 'Všetky tabuľky sú dostupné', // ours
    schemaFailed: (tables: string) => `Nedostupné tabuľky: ${tables}`, // ours
    specialistsOk: (n: number) => `Všetci špecialisti (${n}) majú Inbox ID`, // ours
    specialistsMissing: (names: string) => `Bez Inbox ID: ${names}`, // ours
    richOk: (n: number) => `Nájdené rich správy: ${n}`, // ours
    richNone: 'Žiadne rich správy', // ours
    functions: 'Stav edge funkcií', // ours
    functionsCheck: 'Skontrolovať funkcie', // ours
    deployed: 'Nasadená', // ours
    missing: 'Chýba', // ours
    missingHint: 'Chýbajúce funkcie sa nasadia automaticky po aktualizácii konfigurácie.', // ours
    inboxes: 'Špecialisti a ich Chatwoot inboxy', // issue 21 admin 6
    inboxesNote: 'Odoslanie správy špecialistovi potrebuje jeho API inbox v Chatwoote. Každý inbox môže mať len jeden špecialista.', // issue 21 admin 6
    noInbox: '— bez inboxu —', // issue 21 admin 6
    inboxOption: (name: string, id: number) => `${name} (#${id})`, // issue 21 admin 6
    inboxNotApi: (type: string) => `nie je API inbox: ${type}`, // issue 21 admin 6
    inboxesUnavailable: 'Zoznam inboxov sa nepodarilo načítať. Najprv nastavte a skontrolujte pripojenie k Chatwootu.', // issue 21 admin 6
    inboxesNotConfigured: 'Chatwoot nie je nakonfigurovaný: najprv uložte API URL a Account ID.', // issue 21 admin 6
    inboxSaved: (name: string) => `Inbox špecialistu ${name} uložený`, // issue 21 admin 6
    inboxSaveFailed: 'Nepodarilo sa uložiť inbox', // issue 21 admin 6
    currentInbox: (id: number) => `Aktuálne: inbox #${id}`, // issue 21 admin 6
    send: 'Odoslať správu', // ours
    specialist: 'Špecialista', // ours
    chooseSpecialist: '— vyberte —', // ours
    message: 'Správa', // ours
    sendButton: 'Odoslať', // ours
    sent: 'Správa odoslaná', // ours
    needSpecialist: 'Vyberte špecialistu',
    needInbox: 'Špecialista nemá priradený Chatwoot Inbox ID',
    needMessage: 'Zadajte správu',
    needAccount: 'Používateľ nemá priradený account',
    sendFailed: 'Nepodarilo sa odoslať správu',
    actions: 'Akcie', // ours
    cwConversationId: 'ID konverzácie v Chatwoote (číslo, napr. 42)', // issue 21 admin 9
    ourConversationId: 'ID konverzácie v Poradni (UUID)', // issue 21 admin 9
    cwConversationIdInvalid: 'ID konverzácie v Chatwoote je kladné celé číslo (napr. 42).', // issue 21 admin 9
    ourConversationIdInvalid: 'ID konverzácie v Poradni je UUID (napr. 3f2b…-…).', // issue 21 admin 9
    assigneeId: 'ID agenta v Chatwoote (prázdne = zrušiť priradenie)', // issue 21 admin 10
    assign: 'Priradiť', // ours
    assignedOk: 'Konverzácia priradená', // ours
    unassignedOk: 'Priradenie konverzácie zrušené', // issue 21 admin 10
    statusSwitch: 'Vyriešená', // ours: switch on = resolved, off = open
    setStatus: 'Zmeniť stav', // ours
    statusOk: (to: string) => `Stav konverzácie: ${({ open: 'otvorená', resolved: 'vyriešená', pending: 'čakajúca', snoozed: 'odložená' } as Record<string, string>)[to] ?? to}`, // issue 21 admin 10
    phaseFailure: 'Backend endpoint bude implementovaný v fáze 3.8',
    actionNotConfigured: 'Chatwoot nie je nakonfigurovaný (chýba API URL, Account ID alebo API token), akciu nemožno vykonať.', // ours (issue 37 admin 2)
    events: 'Webhook udalosti', // ours
    eventsSearch: 'Hľadať podľa conversation id alebo typu', // ours
    noEvents: 'Žiadne udalosti', // ours
    reload: 'Obnoviť', // ours
    rich: 'Test rich obsahu', // issue 21 admin 10
    load: 'Načítať', // issue 21 admin 10
    richFailed: 'Nepodarilo sa načítať rich správy',
    richEmpty: 'Žiadne rich správy pre túto konverzáciu', // ours
    eventDetail: 'Detail udalosti', // ours
    close: 'Zavrieť', // ours
    accountFailed: 'Nepodarilo sa načítať alebo vytvoriť account',
    accountName: (local: string) => `${local} Account`,
  },
  edge: {
    title: 'Edge Funkcie', // ours
    runAll: 'Spustiť všetky testy', // ours
    running: (name: string) => `Testujem: ${name}`, // ours
    total: 'Spolu', // issue 21 admin 10
    passed: 'Úspešné', // issue 21 admin 10
    failed: 'Zlyhané', // issue 21 admin 10
    notConfigured: 'Nenakonfigurované', // issue 21 admin 11
    notConfiguredNote: 'Integrácia nie je nakonfigurovaná – nepočíta sa ako chyba.', // issue 21 admin 11
    noDiagnostics: (why: string) => `Diagnostická konverzácia v Chatwoote nie je k dispozícii: ${why}`, // issue 21 admin 3
    average: 'Priemer (ms)', // ours
    jwt: 'JWT Required',
    public: 'Public',
    expected: (status: number | string) => `Expected 200, got ${status}`,
    network: 'Network/CORS error',
    body: (length: number) => `Telo odpovede (${length} znakov)`, // issue 21 admin 10
    config: 'Konfigurácia', // ours
    projectRef: 'Projekt', // issue 21 admin 10
    baseUrl: 'Základná URL', // issue 21 admin 10
    anonKey: 'Anon kľúč', // issue 21 admin 10
    functionsTotal: 'Funkcie spolu', // ours
    functionsPublic: 'Verejné funkcie', // ours
    functionsProtected: 'Chránené funkcie', // ours
    descriptions: {
      'test-function': 'Jednoduchá testovacia funkcia', // ours
      'auth-link': 'Registrácia odkazom: volanie bez e-mailu musí byť odmietnuté (400), nikomu sa nič nepošle', // issue 21 admin 3
      'chatwoot-webhook': 'Chatwoot webhook (webhook_test)', // ours
      'admin-chatwoot-conversations': 'Chatwoot konverzácie', // ours
      'admin-chatwoot-inboxes': 'Chatwoot inboxy', // ours
      'admin-chatwoot-assign': 'Priradenie konverzácie', // ours
      'admin-chatwoot-send': 'Odoslanie správy do diagnostickej konverzácie', // issue 21 admin 3
      'admin-chatwoot-set-custom-attributes': 'Custom atribúty konverzácie', // ours
      'admin-chatwoot-toggle-status': 'Zmena stavu konverzácie', // ours
    } as Record<string, string>,
    // issue 41: which API key and which token signing this app runs with (edge/key-kinds.ts).
    keyLabel: { publishable: 'Publishable kľúč', legacy: 'Anon kľúč (legacy JWT)', unknown: 'API kľúč' },
    keyKind: 'Druh API kľúča',
    keyKinds: {
      publishable: 'Nový publishable kľúč (sb_publishable_…)',
      legacy: 'Starý JWT kľúč anon – Supabase ho do konca roka 2026 vypne; nasaďte publishable kľúč',
      unknown: 'Neznámy druh kľúča',
    },
    tokenSigning: 'Podpis prihlásenia (JWT)',
    tokenSignings: {
      asymmetric: (alg: string) => `${alg} – asymetrický kľúč, overenie cez JWKS`,
      legacy: 'HS256 – starý zdieľaný tajný kľúč (legacy JWT secret)',
      unknown: 'Nezistený (nie ste prihlásený alebo neznámy algoritmus)',
    },
  },
  tests: {
    title: 'Test Runner – Admin',
    unit: 'Run Unit Tests',
    e2e: 'Run E2E Tests',
    edge: 'Test Edge Functions',
    results: 'Test Results',
    copyAll: 'Copy All Results',
    noRuns: 'No test runs yet', // ours
    noOutput: 'No detailed output available',
    status: { running: 'Running', passed: 'Passed', 'not-configured': 'Nenakonfigurované', failed: 'Failed', idle: 'Idle' }, // 'Nenakonfigurované' ours (issue 37)
    started: 'Started', // ours
    ended: 'Ended', // ours
    total: 'Total',
    passed: 'Passed',
    failed: 'Failed',
    noResults: 'No Results',
    noResultsText: 'No test results to copy',
    copied: 'Copied!',
    copiedText: 'All test results copied to clipboard',
    copyFailed: 'Copy Failed',
    copyFailedText: 'Failed to copy results to clipboard',
    passedTitle: 'Tests Passed',
    passedText: (n: number) => `All ${n} tests passed successfully!`,
    // ours (issue 37 admin 3): checks of an integration that is not set up, never counted as passed.
    notConfigured: 'Nenakonfigurované',
    notConfiguredTitle: 'Niektoré testy sa nespustili',
    notConfiguredText: (passed: number, notConfigured: number, total: number) => `Prešlo ${passed} z ${total}, nenakonfigurované: ${notConfigured} (žiadny nezlyhal)`,
    outputLabel: (type: string) => `Výstup testov ${type}`, // ours: the scrollable output box
    failedTitle: 'Tests Failed',
    failedText: (failed: number, total: number) => `${failed} of ${total} tests failed`,
    execFailed: 'Test Execution Failed',
    execFailedText: (type: string, message: string) => `Failed to execute ${type} tests: ${message}`,
    // Plain text: these are output lines, and emoji glyphs render as empty boxes without an emoji font.
    progress: ['Tests are running on the server...', 'Waiting for results...'], // ours
    errorLines: (message: string) => [
      `Error: ${message}`,
      'Possible causes:',
      '- Missing test files or configuration',
      '- Network problems',
      '- Edge function timeout',
      '- Missing dependencies',
    ],
  },
  // ours, issue 39 leftover (branch h-walk): whether an AI provider is configured and reachable.
  aiStatus: {
    title: 'AI poskytovateľ',
    check: 'Skontrolovať',
    checking: 'Kontrolujem…',
    demo: 'Nenakonfigurované: odpovedá vstavaný demo responder (AI_BASE_URL, AI_API_KEY a AI_MODEL nie sú nastavené).',
    reachable: (host: string, model: string, ms: number) => `Dostupný: ${host}, model ${model} (${ms} ms).`,
    keyRefused: (host: string) => `Poskytovateľ ${host} odpovedá, ale odmietol API kľúč.`,
    unreachable: (host: string, error: string) => `Nedostupný: ${host || 'AI_BASE_URL'} (${error}).`,
    failed: (error: string) => `Stav sa nepodarilo zistiť: ${error}`,
    badgeOk: 'Dostupný',
    badgeDemo: 'Nenakonfigurované',
    badgeError: 'Chyba',
  },
} as const;
