// Slovak texts of the installable app (service worker, storage).
export const pwaText = {
  offlineReady: 'Poradňa je pripravená aj na prácu bez pripojenia.',
} as const;
