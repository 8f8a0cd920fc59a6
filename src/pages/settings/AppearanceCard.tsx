// 'Vzhľad' (issue 40): Systém / Svetlý / Tmavý, kept on this device (src/theme/theme-choice.ts). A
// native radio group: arrow keys move the choice, and the theme changes as soon as it is chosen.
import { useState } from 'react';
import { readThemeChoice, setThemeChoice, THEME_CHOICES, type ThemeChoice } from '../../theme/theme-choice.ts';
import { sk } from '../../text/sk.ts';
import { SettingsCard } from './SettingsCard.tsx';

export function AppearanceCard() {
  const [choice, setChoice] = useState<ThemeChoice>(readThemeChoice);
  const choose = (next: ThemeChoice) => {
    setChoice(next);
    setThemeChoice(next);
  };
  return (
    <SettingsCard title={sk.theme.title}>
      <fieldset data-testid="theme-choice">
        <legend className="text-sm text-slate-700">{sk.theme.legend}</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {THEME_CHOICES.map((c) => (
            <label
              key={c}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 has-[:checked]:border-teal-700 has-[:checked]:bg-teal-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-teal-600"
            >
              <input type="radio" name="theme" value={c} checked={choice === c} onChange={() => choose(c)} className="h-4 w-4 accent-teal-700" />
              <span className="text-sm font-medium text-slate-900">{sk.theme.choice[c]}</span>
              {c === 'system' && <span className="sr-only">({sk.theme.systemHint})</span>}
            </label>
          ))}
        </div>
        <p className="mt-2 text-xs text-slate-600">{sk.theme.hint}</p>
      </fieldset>
    </SettingsCard>
  );
}
