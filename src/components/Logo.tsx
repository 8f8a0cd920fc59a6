import { skShell as sk } from '../text/sk-shell.ts';

/** The product mark and name; decorative mark, the name is the accessible text. */
export function Logo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold text-teal-800 ${className}`}>
      <svg aria-hidden="true" viewBox="0 0 32 32" width="28" height="28">
        <rect width="32" height="32" rx="9" fill="#0f766e" />
        <path d="M9 10h14a3 3 0 0 1 3 3v6a3 3 0 0 1-3 3h-7l-5 4v-4H9a3 3 0 0 1-3-3v-6a3 3 0 0 1 3-3z" fill="#fff" />
        <circle cx="12" cy="16" r="1.6" fill="#0f766e" />
        <circle cx="16" cy="16" r="1.6" fill="#0f766e" />
        <circle cx="20" cy="16" r="1.6" fill="#0f766e" />
      </svg>
      <span className="text-lg">{sk.app.name}</span>
    </span>
  );
}
