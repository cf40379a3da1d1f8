import type {
  InputHTMLAttributes,
  ReactNode,
  Ref,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";

/** What a field gives its control: the id its label points at, and the error and hint read with it. */
export type FieldControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  "aria-required": true | undefined;
};

type FieldFrame = {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  /**
   * A star after the label (styles.css: drawn, but left out of the label's accessible name); the control
   * itself is marked required.
   */
  required?: boolean;
  /** "(optional)" after the label. */
  optional?: boolean;
  /** The label is for screen readers only (a legend or heading already names the control on screen). */
  labelHidden?: boolean;
  /** Classes for the wrapper. */
  wrapperClassName?: string;
};

type InputControl = { as?: "input"; ref?: Ref<HTMLInputElement> } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "required" | "children"
>;
type TextareaControl = { as: "textarea"; ref?: Ref<HTMLTextAreaElement> } & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "id" | "required" | "children"
>;
type SelectControl = { as: "select"; ref?: Ref<HTMLSelectElement> } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "id" | "required"
>;
/** Any other control (a text box with a button beside it): `render` draws it with the field's wiring. */
type CustomControl = { as: "custom"; render: (control: FieldControlProps) => ReactNode };

export type FieldProps = FieldFrame & (InputControl | TextareaControl | SelectControl | CustomControl);

/**
 * The one form field: a label (with a required star or "(optional)"), the control, its error and its
 * hint, wired together with aria-invalid and aria-describedby. The control is an input by default,
 * a textarea or select with `as`, or anything with `as: "custom"`.
 */
export function Field(props: FieldProps) {
  const {
    id,
    label,
    hint,
    error,
    required = false,
    optional = false,
    labelHidden = false,
    wrapperClassName,
    ...control
  } = props;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const wiring: FieldControlProps = {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined,
    "aria-required": required ? true : undefined,
  };
  return (
    <div className={wrapperClassName}>
      <label
        htmlFor={id}
        className={
          labelHidden ? "sr-only" : classes("mb-1 block text-sm font-medium", required && "field-required")
        }
      >
        {label}
        {optional && (
          <span aria-hidden="true" className="ml-1 text-xs text-base-content/60">
            (optional)
          </span>
        )}
      </label>
      {renderControl(control, wiring, required, Boolean(error))}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-error">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-base-content/60">
          {hint}
        </p>
      )}
    </div>
  );
}

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ");

function renderControl(
  control: InputControl | TextareaControl | SelectControl | CustomControl,
  wiring: FieldControlProps,
  required: boolean,
  invalid: boolean,
): ReactNode {
  switch (control.as) {
    case "custom":
      return control.render(wiring);
    case "textarea": {
      const { as: _, className, ...textarea } = control;
      return (
        <textarea
          {...textarea}
          {...wiring}
          required={required}
          className={classes("textarea w-full", invalid && "textarea-error", className)}
        />
      );
    }
    case "select": {
      const { as: _, className, ...select } = control;
      return (
        <select
          {...select}
          {...wiring}
          required={required}
          className={classes("select w-full", invalid && "select-error", className)}
        />
      );
    }
    default: {
      const { as: _, className, ...input } = control;
      return (
        <input
          {...input}
          {...wiring}
          required={required}
          className={classes("input w-full", invalid && "input-error", className)}
        />
      );
    }
  }
}
