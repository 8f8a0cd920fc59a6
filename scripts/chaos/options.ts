// Command-line flags of `npm run chaos`. Pure.
export interface ChaosOptions {
  contexts: number;
  accounts: number;
  messages: number;
  seed: number;
  kills: boolean;
  webDir: string | undefined;
  /** How long healing may take before the clients that are not equal count as divergent. */
  healTimeoutMs: number;
  /** Share of API requests black-holed (0–1); see faults.ts. */
  hangRate: number;
}

export const FULL: Omit<ChaosOptions, 'seed' | 'webDir'> = { contexts: 10, accounts: 3, messages: 100, kills: true, healTimeoutMs: 180_000, hangRate: 0 };
export const SHORT: Omit<ChaosOptions, 'seed' | 'webDir'> = { contexts: 4, accounts: 2, messages: 15, kills: true, healTimeoutMs: 90_000, hangRate: 0 };

export const USAGE = `usage: npm run chaos -- [--short] [--contexts N] [--accounts N] [--messages N] [--seed N] [--no-kill] [--web-dir DIR] [--heal-timeout SECONDS] [--hang PERCENT]`;

export function parseOptions(argv: readonly string[], defaultSeed: number): ChaosOptions {
  const base = argv.includes('--short') ? SHORT : FULL;
  const o: ChaosOptions = { ...base, seed: defaultSeed, webDir: undefined };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    const int = (min: number) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < min) throw new Error(`${flag} must be an integer ≥ ${min}\n${USAGE}`);
      return n;
    };
    switch (flag) {
      case '--short':
        break;
      case '--contexts':
        o.contexts = int(1);
        break;
      case '--accounts':
        o.accounts = int(1);
        break;
      case '--messages':
        o.messages = int(1);
        break;
      case '--seed':
        o.seed = int(0);
        break;
      case '--no-kill':
        o.kills = false;
        break;
      case '--web-dir':
        o.webDir = value();
        break;
      case '--hang': {
        const pct = Number(value());
        if (!(pct >= 0 && pct <= 100)) throw new Error(`--hang must be a percentage 0–100\n${USAGE}`);
        o.hangRate = pct / 100;
        break;
      }
      case '--heal-timeout':
        o.healTimeoutMs = int(1) * 1000;
        break;
      default:
        throw new Error(`unknown flag ${flag}\n${USAGE}`);
    }
  }
  if (o.accounts > 26) throw new Error('--accounts is at most 26');
  return o;
}
