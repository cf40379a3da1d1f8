import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, Redirect } from "wouter";
import { navigate } from "wouter/use-browser-location";
import { type LoginField, loginErrors } from "../../../shared/auth-rules";
import { AuthCard, OrDivider } from "../../components/auth-card";
import { ErrorAlert } from "../../components/error-alert";
import { Field } from "../../components/field";
import { useToast } from "../../components/toast";
import { usePageMeta } from "../../components/use-page-meta";
import {
  errorDetailOf,
  getErrorMessage,
  httpStatusOf,
  isNetworkError,
  NETWORK_ERROR_MESSAGE,
} from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { type FieldErrors, hasErrors, serverFieldErrors } from "../../lib/field-errors";
import { takeReturnTo } from "../../lib/return-to";
import { GoogleSignInButton } from "./google-sign-in-button";
import { useAuthProviders } from "./use-auth-providers";

export const LOGIN_FAILED_MESSAGE = "Login failed. Please check your credentials.";
/** The auth error message clears after 5 s; login toasts last 3000 ms (success) and 5000 ms (failure). */
const AUTH_MESSAGE_MS = 5_000;

/** The schema's field names are the form's. */
const FIELDS: Record<string, LoginField> = { email: "email", password: "password" };

export default function LoginPage() {
  usePageMeta({ title: "Sign In", path: "/login", description: "Sign in to Atomize." });
  const auth = useAuth();
  const toast = useToast();
  const providers = useAuthProviders();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // While our own sign-in finishes, we navigate ourselves (to the remembered origin).
  const signingIn = useRef(false);

  const { sessionExpiredMessage, clearSessionExpiredMessage } = auth;
  useEffect(() => {
    if (!sessionExpiredMessage) return;
    const timer = setTimeout(clearSessionExpiredMessage, AUTH_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [sessionExpiredMessage, clearSessionExpiredMessage]);

  useEffect(() => {
    if (!formError) return;
    const timer = setTimeout(() => setFormError(null), AUTH_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [formError]);

  if (auth.status === "authenticated" && !signingIn.current) return <Redirect to="/dashboard" replace />;

  const edit = (field: LoginField, value: string) => {
    (field === "email" ? setEmail : setPassword)(value);
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const succeed = () => {
    toast.success("Login successful", { duration: 3_000 });
    navigate(takeReturnTo(), { replace: true });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    // The public bundle carries no zod: the zod-free rules give loginInput's messages.
    const found = loginErrors({ email, password });
    setErrors(found);
    if (hasErrors(found)) return;
    setSubmitting(true);
    setFormError(null);
    signingIn.current = true;
    try {
      await auth.login({ email: email.trim().toLowerCase(), password });
      succeed();
    } catch (err) {
      signingIn.current = false;
      setSubmitting(false);
      const fieldErrors = serverFieldErrors(err, FIELDS);
      if (hasErrors(fieldErrors)) {
        setErrors(fieldErrors);
        return;
      }
      const detail = errorDetailOf(err);
      setFormError(
        httpStatusOf(err) === 429
          ? (detail ?? getErrorMessage(err))
          : isNetworkError(err)
            ? NETWORK_ERROR_MESSAGE
            : LOGIN_FAILED_MESSAGE,
      );
      toast.error(detail ?? "Invalid credentials", { title: "Login failed", duration: 5_000 });
    }
  };

  const onDevLogin = async () => {
    setSubmitting(true);
    signingIn.current = true;
    try {
      await auth.devLogin();
      succeed();
    } catch (err) {
      signingIn.current = false;
      setSubmitting(false);
      toast.error(getErrorMessage(err), { title: "Login failed", duration: 5_000 });
    }
  };

  return (
    <AuthCard title="Sign In" subtitle="Welcome back. Sign in to plan and track your projects.">
      {sessionExpiredMessage && (
        <div role="alert" className="alert alert-warning text-sm">
          {sessionExpiredMessage}
        </div>
      )}
      <ErrorAlert message={formError} />

      <form className="flex flex-col gap-3" onSubmit={onSubmit} noValidate>
        <Field
          id="login-email"
          label="Email"
          required
          error={errors.email}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => edit("email", e.target.value)}
        />
        <Field
          id="login-password"
          label="Password"
          required
          error={errors.password}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => edit("password", e.target.value)}
        />
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={submitting}>
          {submitting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          Sign In
        </button>
      </form>

      <OrDivider />
      <GoogleSignInButton mode="login" />

      {providers.data?.devBypass && (
        <button
          type="button"
          className="btn btn-warning btn-outline w-full"
          disabled={submitting}
          onClick={() => void onDevLogin()}
        >
          Development Login (bypass)
        </button>
      )}

      <p className="text-center text-sm">
        Don't have an account?{" "}
        <Link href="/register" className="link link-primary">
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}
