import type { z } from "zod";
import type { updateEventModelInput } from "../../../shared/schemas/tasks";
import { eventModels } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { getOwnedRow } from "../../plan/owned";
import { toMetadata } from "./serialize";

export async function updateEventModel(
  deps: Deps,
  userId: string,
  id: string,
  input: z.output<typeof updateEventModelInput>,
) {
  const row = await getOwnedRow(deps, userId, id);
  const rootId = row.rootTaskId ?? row.id;
  // user_edited_at marks the model as a person's: a decomposition finishing later keeps it.
  const now = new Date();
  const [saved] = await deps.db
    .insert(eventModels)
    .values({ rootTaskId: rootId, markdown: input.event_model_markdown, userEditedAt: now })
    .onConflictDoUpdate({
      target: eventModels.rootTaskId,
      set: { markdown: input.event_model_markdown, userEditedAt: now, updatedAt: now },
    })
    .returning();
  return toMetadata(saved ?? null)!;
}
