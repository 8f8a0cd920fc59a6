import type { InputHTMLAttributes } from 'react';

export function TextField({ label, className = '', ...rest }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  return (
    <label className={`flex flex-col gap-1 text-sm ${className}`}>
      <span className="font-medium text-slate-700">{label}</span>
      <input className="focus-ring rounded-lg border border-slate-300 px-3 py-2 text-base" {...rest} />
    </label>
  );
}

export function SearchField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <input
      type="search"
      aria-label={label}
      placeholder={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="focus-ring w-full rounded-lg border border-slate-300 px-3 py-2 text-base"
    />
  );
}
