import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { GeneralSettings } from "../../../shared/schemas/integrations";
import { useTRPC } from "../../lib/trpc";
import { useGeneralSettings } from "../../lib/user-settings";

/**
 * Whether a new project's reading is checked before planning (issue 38): the user's general setting,
 * kept on the server, so the choice follows them to every browser. Changing it here saves it.
 */
export function useReviewChoice() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { settings } = useGeneralSettings();
  const update = useMutation(trpc.settings.update.mutationOptions());
  const key = trpc.settings.get.queryKey();
  return {
    on: settings.reviewReading,
    set(on: boolean) {
      queryClient.setQueryData<GeneralSettings>(key, (old) => ({ ...(old ?? settings), reviewReading: on }));
      update.mutate({ reviewReading: on }, { onSuccess: (saved) => queryClient.setQueryData(key, saved) });
    },
  };
}
