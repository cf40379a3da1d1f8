import { useCallback } from "react";
import { useAuth } from "../lib/auth";
import { useLoading } from "./loading-overlay";
import { useToast } from "./toast";

export const LOGOUT_FAILED_MESSAGE = "Logout failed. Please try again.";

/** Auth: logout with the global loading overlay, then / (or a toast when it fails). */
export function useLogout(): () => Promise<void> {
  const { logout } = useAuth();
  const { start, stop } = useLoading();
  const toast = useToast();
  return useCallback(async () => {
    start("logout", "Signing out...");
    try {
      await logout();
    } catch {
      toast.error(LOGOUT_FAILED_MESSAGE);
    } finally {
      stop("logout");
    }
  }, [logout, start, stop, toast]);
}
