import { type FormEvent, useState } from "react";
import { Link } from "wouter";
import { navigate } from "wouter/use-browser-location";
import { type RegisterField, registerErrors } from "../../../shared/auth-rules";
import type { RegisterInput } from "../../../shared/schemas/auth";
import { AuthCard, OrDivider } from "../../components/auth-card";
import { Field } from "../../components/field";
import { useToast } from "../../components/toast";
import { usePageMeta } from "../../components/use-page-meta";
import { errorDetailOf, isNetworkError, NETWORK_ERROR_MESSAGE } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { type FieldErrors, hasErrors, serverFieldErrors } from "../../lib/field-errors";
import { takeReturnTo } from "../../lib/return-to";
import { GoogleSignInButton } from "./google-sign-in-button";

export const EMAIL_ALREADY_REGISTERED =
  "This email is already registered. Please use a different email or sign in instead.";
const REGISTRATION_FAILED = "Registration failed. Please try again.";

type FormField = RegisterField | "confirmPassword";
type Values = Record<FormField, string>;

/** The schema's field names to the form's fields. */
const FIELDS: Record<string, RegisterField> = {
  email: "email",
  username: "email",
  full_name: "fullName",
  password: "password",
};

/**
 * Registration payload: the e-mail normalised as the schema does (trimmed, lower case) and sent as the
 * username too, full_name "" when blank, fixed account defaults.
 */
function registrationPayload(values: Values): RegisterInput {
  const email = values.email.trim().toLowerCase();
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
  const [errors, setErrors] = useState<FieldErrors<FormField>>({});
  const [submitting, setSubmitting] = useState(false);

  const confirmTouched = values.confirmPassword !== "";
  const passwordsMatch = values.password === values.confirmPassword;
  const missingRequired = !values.email.trim() || !values.password || !values.confirmPassword;
  const canSubmit = !missingRequired && passwordsMatch && !submitting;

  const edit = (field: FormField) => (event: { target: { value: string } }) => {
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
    // The public bundle carries no zod: the zod-free rules give registerInput's messages.
    const found = registerErrors(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setSubmitting(true);
    try {
      await auth.register(registrationPayload(values));
      toast.success("Registration successful!");
      navigate(takeReturnTo(), { replace: true });
    } catch (err) {
      setSubmitting(false);
      const detail = errorDetailOf(err);
      if (detail?.includes("Email already registered")) {
        setErrors({ email: EMAIL_ALREADY_REGISTERED });
        return;
      }
      const next = serverFieldErrors(err, FIELDS);
      if (hasErrors(next)) {
        setErrors(next);
        return;
      }
      toast.error(detail ?? (isNetworkError(err) ? NETWORK_ERROR_MESSAGE : REGISTRATION_FAILED), {
        title: "Registration failed",
      });
    }
  };

  const input = (
    field: FormField,
    label: string,
    type: string,
    opts: { required?: boolean; autoComplete: string },
  ) => (
    <Field
      id={`register-${field}`}
      label={label}
      required={opts.required}
      optional={!opts.required}
      error={errors[field]}
      name={field}
      type={type}
      autoComplete={opts.autoComplete}
      value={values[field]}
      onChange={edit(field)}
    />
  );

  return (
    <AuthCard title="Create Account" subtitle="Start breaking complex projects into actionable work items.">
      <form className="flex flex-col gap-3" onSubmit={onSubmit} noValidate>
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
