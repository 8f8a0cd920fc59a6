import { useId } from 'react';
import { sk } from '../../text/sk.ts';

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  autoFocus?: boolean;
}

export function EmailField({ value, onChange, autoFocus = false }: EmailFieldProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {sk.auth.email}
      </label>
      <input
        id={id}
        type="email"
        name="email"
        required
        autoComplete="email"
        inputMode="email"
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="field"
      />
    </div>
  );
}
