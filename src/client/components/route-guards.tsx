import type { ReactNode } from "react";
import { Redirect } from "wouter";
import { useAuth } from "../lib/auth";
import { currentPath, rememberReturnTo } from "../lib/return-to";
import { PageSpinner } from "./spinner";

export const CHECKING_AUTH_LABEL = "Checking authentication...";

function ToLogin() {
  // Remember where the visitor was going; login, registration and OAuth return there.
  rememberReturnTo(currentPath());
  return <Redirect to="/login" replace />;
}

/** Signed-in routes; a spinner while auth loads, then /login for signed-out visitors. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === "loading") return <PageSpinner label={CHECKING_AUTH_LABEL} />;
  if (status === "unauthenticated") return <ToLogin />;
  return <>{children}</>;
}

/** Admin-only routes; signed-in non-admins go to /. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status, isAdmin } = useAuth();
  if (status === "loading") return <PageSpinner label={CHECKING_AUTH_LABEL} />;
  if (status === "unauthenticated") return <ToLogin />;
  if (!isAdmin) return <Redirect to="/" replace />;
  return <>{children}</>;
}
