import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { GeneralSettings } from "../../../../shared/schemas/integrations";
import { useTRPC } from "../../../lib/trpc";
import { useGeneralSettings } from "../../../lib/user-settings";

/**
 * Whether a new project's reading is checked before planning (issue 38): the user's general setting,
 * kept on the server, so the choice follows them to every browser. Changing it here saves it. A choice
 * made on this page holds on this page: a settings read that was in flight when it was made (the first
 * load, or the reload on each route change) answers with the old value and must not undo the click.
 */
export function useReviewChoice() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { settings } = useGeneralSettings();
  const update = useMutation(trpc.settings.update.mutationOptions());
  const key = trpc.settings.get.queryKey();
  const [chosen, setChosen] = useState<boolean | null>(null);
  return {
    on: chosen ?? settings.reviewReading,
    set(on: boolean) {
      setChosen(on);
      queryClient.setQueryData<GeneralSettings>(key, (old) => ({ ...(old ?? settings), reviewReading: on }));
      update.mutate({ reviewReading: on }, { onSuccess: (saved) => queryClient.setQueryData(key, saved) });
    },
  };
}
