import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { GeneralSettings, generalSettingsInput } from "../../../shared/schemas/integrations";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";
import { generalSettingsOf } from "./general-settings-of";

export async function updateGeneralSettings(
  deps: Deps,
  user: UserRow,
  input: z.output<typeof generalSettingsInput>,
): Promise<GeneralSettings> {
  const settings = { ...generalSettingsOf(user), ...input };
  await deps.db.update(users).set({ settings, updatedAt: new Date() }).where(eq(users.id, user.id));
  return settings;
}
