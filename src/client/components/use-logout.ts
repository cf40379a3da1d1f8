import { useCallback } from "react";
import { loadRuntime } from "../lib/runtime";
import { useLoading } from "./loading-overlay";
import { useToast } from "./toast";

export const LOGOUT_FAILED_MESSAGE = "Logout failed. Please try again.";

/**
 * Auth: logout with the global loading overlay, then / (or a toast when it fails). Usable on every page:
 * the header of a public page has no auth provider, so this goes through the app's runtime.
 */
export function useLogout(): () => Promise<void> {
  const { start, stop } = useLoading();
  const toast = useToast();
  return useCallback(async () => {
    start("logout", "Signing out...");
    try {
      await (await loadRuntime()).logout();
    } catch {
      toast.error(LOGOUT_FAILED_MESSAGE);
    } finally {
      stop("logout");
    }
  }, [start, stop, toast]);
}
