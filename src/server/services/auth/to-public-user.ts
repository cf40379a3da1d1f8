import type { PublicUser } from "../../../shared/schemas/auth";
import { currentUsagePeriod } from "./accounts";
import type { UserRow } from "./sessions";

export function toPublicUser(u: UserRow): PublicUser {
  // The monthly counter belongs to a calendar month; a stale one reads as zero until the next write resets it.
  const used = u.usagePeriod === currentUsagePeriod() ? u.tasksCreatedThisMonth : 0;
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    full_name: u.fullName,
    role: u.role,
    provider: u.provider,
    subscription_tier: u.subscriptionTier,
    subscription_status: u.subscriptionStatus,
    monthly_task_limit: u.monthlyTaskLimit,
    tasks_created_this_month: used,
    email_verified: u.emailVerifiedAt !== null,
    created_at: u.createdAt.toISOString(),
  };
}
