import type { PasswordProblem } from '../../lib/password-rules.ts';

/** The rule messages of one field, grouped under their titles ('Slabé heslo', 'Heslá sa nezhodujú'). */
export function PasswordRuleErrors({ id, problems }: { id: string; problems: PasswordProblem[] }) {
  if (problems.length === 0) return null;
  const titles = [...new Set(problems.map((p) => p.title))];
  return (
    <div id={id} className="text-sm text-red-700">
      {titles.map((title) => (
        <div key={title}>
          <p className="font-semibold">{title}</p>
          {problems
            .filter((p) => p.title === title)
            .map((p) => (
              <p key={p.description}>{p.description}</p>
            ))}
        </div>
      ))}
    </div>
  );
}
