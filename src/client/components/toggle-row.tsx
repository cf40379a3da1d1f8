import type { ReactNode } from "react";

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
