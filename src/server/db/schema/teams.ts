import { sql } from "drizzle-orm";
import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { INVITABLE_ROLES, TEAM_ROLES } from "../../../shared/schemas/teams";
import { userRef, users } from "./users";

/**
 * Teams (issue 41): people who plan and work together. A member's role says what they may do: owner and
 * admin manage members and settings, members plan, edit, claim and comment, viewers read and comment.
 */
export const teams = pgTable("teams", {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  createdBy: uuid().references(() => users.id, { onDelete: "set null" }),
  /** "Plans need approval": every plan of the team is approved before an export (as a plan's own `requires_approval`). */
  requiresApproval: boolean().notNull().default(false),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const teamMembers = pgTable(
  "team_members",
  {
    teamId: uuid()
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: userRef(),
    role: text({ enum: TEAM_ROLES }).notNull(),
    joinedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user_idx").on(t.userId)],
);

/**
 * An invitation to a team, sent to an address: only a SHA-256 of its token is kept. It is accepted once,
 * by a signed-in account whose verified address is the invited one, before it expires or is revoked.
 */
export const teamInvitations = pgTable(
  "team_invitations",
  {
    id: uuid().primaryKey().defaultRandom(),
    teamId: uuid()
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text().notNull(),
    role: text({ enum: INVITABLE_ROLES }).notNull(),
    tokenHash: text().notNull(),
    invitedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("team_invitations_token_idx").on(t.tokenHash),
    index("team_invitations_team_idx").on(t.teamId, t.createdAt),
    index("team_invitations_open_email_idx")
      .on(t.teamId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);
