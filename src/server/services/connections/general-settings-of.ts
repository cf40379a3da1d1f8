import type { GeneralSettings } from "../../../shared/schemas/integrations";
import type { UserRow } from "../auth/sessions";

export function generalSettingsOf(user: UserRow): GeneralSettings {
  return {
    darkMode: user.settings?.darkMode ?? false,
    notifications: user.settings?.notifications ?? true,
    // Checking what was read before planning is the default (issue 38).
    reviewReading: user.settings?.reviewReading ?? true,
  };
}
