import { eq } from "drizzle-orm";
import type { TaskUsage } from "../../../shared/schemas/tasks";
import type { Tx } from "../../db/client";
import { users } from "../../db/schema/index";
import { AppError } from "../../errors";
import { currentUsagePeriod } from "../auth/accounts";
import type { UserRow } from "../auth/sessions";

/** The monthly task allowance: what a user has used, and counting one more use. */

function firstOfNextMonth(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export function usageOf(user: UserRow): TaskUsage {
  const period = currentUsagePeriod();
  return {
    used: user.usagePeriod === period ? user.tasksCreatedThisMonth : 0,
    limit: user.role === "admin" ? null : user.monthlyTaskLimit,
    period,
    resets_at: firstOfNextMonth().toISOString(),
  };
}

function monthName(d: Date) {
  return d.toLocaleString("en", { month: "long", day: "numeric", timeZone: "UTC" });
}

/**
 * Counts one use of the monthly task limit, or refuses it (429) when the limit is reached; admins have
 * none. Every request that starts a decomposition uses one: creating a task, restarting a task's
 * decomposition, resubmitting a rejected plan and adding a task with auto_decompose (each costs model
 * calls; docs/decisions/009-usage-and-subscriptions.md). Call it first in the transaction that queues
 * the work: it locks the user's row, so concurrent requests cannot overrun the limit, and a refusal
 * rolls everything back.
 */
export async function countMonthlyUse(tx: Tx, userId: string, hint = ""): Promise<void> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  if (!user) throw new AppError("UNAUTHORIZED", "Not authenticated");
  const period = currentUsagePeriod();
  const used = user.usagePeriod === period ? user.tasksCreatedThisMonth : 0;
  if (user.role !== "admin" && used >= user.monthlyTaskLimit) {
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `You have reached your monthly limit of ${user.monthlyTaskLimit} tasks. It resets on ${monthName(firstOfNextMonth())}.${hint}`,
    );
  }
  await tx
    .update(users)
    .set({ tasksCreatedThisMonth: used + 1, usagePeriod: period })
    .where(eq(users.id, userId));
}
