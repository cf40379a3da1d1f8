import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { navigate } from "wouter/use-browser-location";
import { type RegisterInput, registerInput } from "../../../shared/schemas/auth";
import { useToast } from "../../components/toast";
import { usePageMeta } from "../../components/use-page-meta";
import { errorDetailOf, fieldErrorsOf, isNetworkError, NETWORK_ERROR_MESSAGE } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { takeReturnTo } from "../../lib/return-to";
import { AuthCard, FieldError, OrDivider } from "./auth-card";
import { GoogleSignInButton } from "./google-sign-in-button";

export const EMAIL_ALREADY_REGISTERED =
  "This email is already registered. Please use a different email or sign in instead.";
const REGISTRATION_FAILED = "Registration failed. Please try again.";

type Field = "email" | "fullName" | "password" | "confirmPassword";
type Values = Record<Field, string>;

/** Server and schema field names to the form's fields. */
const FIELD_BY_NAME: Record<string, Field> = {
  email: "email",
  username: "email",
  full_name: "fullName",
  password: "password",
};

/** Registration payload: username is the e-mail, full_name "" when blank, fixed account defaults. */
function registrationPayload(values: Values): RegisterInput {
  const email = values.email.trim();
  return {
    email,
    username: email,
    password: values.password,
    full_name: values.fullName.trim(),
    provider: "local",
    disabled: false,
    role: "user",
    subscription_tier: "free",
    subscription_status: "active",
    monthly_task_limit: 10,
    tasks_created_this_month: 0,
  };
}

export default function RegisterPage() {
  usePageMeta({ title: "Create Account", path: "/register", description: "Create your Atomize account." });
  const auth = useAuth();
  const toast = useToast();
  const [values, setValues] = useState<Values>({
    email: "",
    fullName: "",
    password: "",
    confirmPassword: "",
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);

  const confirmTouched = values.confirmPassword !== "";
  const passwordsMatch = values.password === values.confirmPassword;
  const missingRequired = !values.email.trim() || !values.password || !values.confirmPassword;
  const canSubmit = !missingRequired && passwordsMatch && !submitting;

  const edit = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (values.password !== values.confirmPassword) {
      toast.error("Password and confirm password must match.", { title: "Password mismatch" });
      return;
    }
    const payload = registrationPayload(values);
    const parsed = registerInput.safeParse(payload);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = FIELD_BY_NAME[String(issue.path[0])];
        if (field && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setSubmitting(true);
    try {
      // Send the normalised e-mail (trimmed, lower case) as both email and username.
      await auth.register({ ...payload, email: parsed.data.email, username: parsed.data.email });
      toast.success("Registration successful!");
      navigate(takeReturnTo(), { replace: true });
    } catch (err) {
      setSubmitting(false);
      const detail = errorDetailOf(err);
      if (detail?.includes("Email already registered")) {
        setErrors({ email: EMAIL_ALREADY_REGISTERED });
        return;
      }
      const next: Partial<Record<Field, string>> = {};
      for (const fe of fieldErrorsOf(err)) {
        const field = FIELD_BY_NAME[fe.field];
        if (field && !next[field]) next[field] = fe.message;
      }
      if (Object.keys(next).length > 0) {
        setErrors(next);
        return;
      }
      toast.error(detail ?? (isNetworkError(err) ? NETWORK_ERROR_MESSAGE : REGISTRATION_FAILED), {
        title: "Registration failed",
      });
    }
  };

  const input = (
    field: Field,
    label: string,
    type: string,
    opts: { required?: boolean; autoComplete: string },
  ) => {
    const id = `register-${field}`;
    const errorId = `${id}-error`;
    return (
      <div>
        <label htmlFor={id} className="label mb-1 text-sm font-medium text-base-content">
          {label}
          {!opts.required && (
            <span aria-hidden="true" className="text-xs text-base-content/60">
              (optional)
            </span>
          )}
        </label>
        <input
          id={id}
          name={field}
          type={type}
          className={`input w-full ${errors[field] ? "input-error" : ""}`}
          autoComplete={opts.autoComplete}
          required={opts.required}
          value={values[field]}
          onChange={edit(field)}
          aria-invalid={errors[field] ? true : undefined}
          aria-describedby={errors[field] ? errorId : undefined}
        />
        <FieldError id={errorId} message={errors[field]} />
      </div>
    );
  };

  return (
    <AuthCard title="Create Account" subtitle="Start breaking complex projects into actionable work items.">
      <form className="flex flex-col gap-3" onSubmit={onSubmit}>
        {input("email", "Email", "email", { required: true, autoComplete: "email" })}
        {input("fullName", "Full Name", "text", { autoComplete: "name" })}
        {input("password", "Password", "password", { required: true, autoComplete: "new-password" })}
        {input("confirmPassword", "Confirm Password", "password", {
          required: true,
          autoComplete: "new-password",
        })}
        {confirmTouched && (
          <p
            aria-live="polite"
            className={`-mt-1 text-sm ${passwordsMatch ? "text-success" : "text-error"}`}
            data-testid="password-match"
          >
            {passwordsMatch ? "Passwords match" : "Passwords don't match"}
          </p>
        )}
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={!canSubmit}>
          {submitting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Create Account
        </button>
      </form>

      <OrDivider />
      <GoogleSignInButton mode="register" />

      <p className="text-center text-sm">
        Already have an account?{" "}
        <Link href="/login" className="link link-primary">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
