import type { InputHTMLAttributes, ReactNode } from "react";

/** A labelled on/off switch (a checkbox with the switch role) with an optional description. */
export function ToggleRow({
  id,
  label,
  description,
  checked,
  onChange,
  disabled = false,
}: {
  id: string;
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="cursor-pointer font-medium">
          {label}
        </label>
        {description && (
          <p id={`${id}-hint`} className="mt-0.5 text-sm text-base-content/70">
            {description}
          </p>
        )}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="toggle toggle-primary mt-0.5 shrink-0"
        checked={checked}
        aria-checked={checked}
        disabled={disabled}
        aria-describedby={description ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
    </div>
  );
}

/** A labelled text input with an optional hint and error, wired up for screen readers. */
export function TextField({
  id,
  label,
  hint,
  error,
  className = "",
  inputClassName = "",
  ...input
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Extra classes for the input itself (className goes on the wrapper). */
  inputClassName?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id">) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className={`input w-full ${error ? "input-error" : ""} ${inputClassName}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-error">
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-base-content/60">
          {hint}
        </p>
      )}
    </div>
  );
}
