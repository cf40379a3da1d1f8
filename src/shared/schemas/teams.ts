import { z } from "zod";
import { isoTimestamp } from "./common";

/**
 * Teams, their members and invitations (issue 41; docs/decisions/036-teams.md).
 * - owner: everything, and the only role that makes or unmakes owners; a team always keeps one.
 * - admin: members, invitations and settings.
 * - member: plans, edits, claims and comments.
 * - viewer: reads and comments.
 */
export const TEAM_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** What an invitation may give: an owner is made from a member, by an owner. */
export const INVITABLE_ROLES = ["admin", "member", "viewer"] as const;

export const TEAM_NAME_MAX = 80;
export const INVITATION_DAYS = 7;

const teamName = z
  .string({ error: "name must be text" })
  .trim()
  .min(1, "Give the team a name")
  .max(TEAM_NAME_MAX, `A team's name is at most ${TEAM_NAME_MAX} characters`);

/** POST /teams */
export const createTeamInput = z.strictObject({ name: teamName });

export const team = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The caller's role in it. */
    role: z.enum(TEAM_ROLES),
    members: z.number().int(),
    /** "Plans need approval": every plan of the team is approved before an export, whatever its own switch. */
    requires_approval: z.boolean(),
    created_at: isoTimestamp,
  })
  .meta({ id: "Team" });
export type Team = z.infer<typeof team>;
export const teamList = z.object({ teams: z.array(team) }).meta({ id: "TeamList" });

export const teamMember = z
  .object({
    user_id: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(TEAM_ROLES),
    joined_at: isoTimestamp,
  })
  .meta({ id: "TeamMember" });
export const teamMembers = z.object({ members: z.array(teamMember) }).meta({ id: "TeamMembers" });

/** PATCH /teams/{id}: the team's settings (owners and admins), at least one of them. */
export const updateTeamFields = {
  name: teamName.optional(),
  requires_approval: z.boolean({ error: "requires_approval must be true or false" }).optional(),
};
export const someTeamSetting = [
  (v: { name?: string; requires_approval?: boolean }) =>
    v.name !== undefined || v.requires_approval !== undefined,
  { error: "Send name or requires_approval to change" },
] as const;
export const updateTeamInput = z.strictObject(updateTeamFields).refine(...someTeamSetting);

/** PATCH /teams/{id}/members/{user_id} */
export const setRoleInput = z.strictObject({
  role: z.enum(TEAM_ROLES, { error: `role must be one of ${TEAM_ROLES.join(", ")}` }),
});

/** POST /teams/{id}/invitations */
export const inviteInput = z.strictObject({
  email: z
    .string({ error: "email must be an e-mail address" })
    .trim()
    .max(254, "That e-mail address is too long")
    .pipe(z.email({ error: "email must be an e-mail address" })),
  role: z
    .enum(INVITABLE_ROLES, { error: `role must be one of ${INVITABLE_ROLES.join(", ")}` })
    .default("member"),
});

export const invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(INVITABLE_ROLES),
    created_at: isoTimestamp,
    expires_at: isoTimestamp,
  })
  .meta({ id: "TeamInvitation" });
export const invitationList = z.object({ invitations: z.array(invitation) }).meta({ id: "TeamInvitations" });
/** What making an invitation answers: the link (also e-mailed), shown once. */
export const madeInvitation = invitation
  .extend({ token: z.string(), url: z.string(), emailed: z.boolean() })
  .meta({ id: "MadeInvitation" });

export const acceptedInvitation = z
  .object({ team_id: z.string(), team_name: z.string(), role: z.enum(INVITABLE_ROLES) })
  .meta({ id: "AcceptedInvitation" });
