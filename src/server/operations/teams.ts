import { z } from "zod";
import {
  acceptedInvitation,
  createTeamInput,
  invitationList,
  inviteInput,
  madeInvitation,
  setRoleInput,
  someTeamSetting,
  team,
  teamList,
  teamMembers,
  updateTeamFields,
} from "../../shared/schemas/teams";
import { acceptInvitation } from "../services/teams/accept-invitation";
import { createTeam } from "../services/teams/create-team";
import { invite } from "../services/teams/invite";
import { listInvitations } from "../services/teams/list-invitations";
import { listMembers } from "../services/teams/list-members";
import { listTeams } from "../services/teams/list-teams";
import { removeMember } from "../services/teams/remove-member";
import { revokeInvitation } from "../services/teams/revoke-invitation";
import { setMemberRole } from "../services/teams/set-member-role";
import { updateTeam } from "../services/teams/update-team";
import { mutation, query } from "./define";

const teamId = z.string().max(100);
const byTeam = z.strictObject({ id: teamId });
const member = z.strictObject({ id: teamId, user_id: z.string().max(100) });

/**
 * Teams (issue 41): members and roles, invitations. Changes to who is in a team and with what role need
 * a signed-in session (an API token cannot make itself an owner), as admin role changes do.
 */
export const teamOperations = {
  create: mutation({
    access: "user",
    summary: "Creates a team; you are its owner.",
    input: createTeamInput,
    output: team,
    run: ({ deps, user }, input) => createTeam(deps, user.id, input),
    rest: [{ method: "post", path: "/teams", from: "body", status: 201 }],
  }),
  list: query({
    access: "user",
    summary: "Your teams, with your role in each.",
    output: teamList,
    run: ({ deps, user }) => listTeams(deps, user.id),
    rest: [{ method: "get", path: "/teams" }],
  }),
  update: mutation({
    access: "user",
    summary:
      "Changes a team's settings (owners and admins): its name, and whether every plan of the team needs an approval before export.",
    input: byTeam.extend(updateTeamFields).refine(...someTeamSetting),
    output: team,
    run: ({ deps, user }, { id, ...input }) => updateTeam(deps, user.id, id, input),
    rest: [{ method: "patch", path: "/teams/{id}", from: "body" }],
  }),
  members: query({
    access: "user",
    summary: "A team's members and their roles (members only).",
    input: byTeam,
    output: teamMembers,
    run: ({ deps, user }, input) => listMembers(deps, user.id, input.id),
    rest: [{ method: "get", path: "/teams/{id}/members" }],
  }),
  setRole: mutation({
    access: "user",
    sessionOnly: true,
    summary:
      "Changes a member's role (owners and admins; only an owner makes or changes an owner; the last owner stays).",
    input: member.extend(setRoleInput.shape),
    output: teamMembers,
    run: ({ deps, user }, { id, user_id, ...input }) => setMemberRole(deps, user.id, id, user_id, input),
    rest: [{ method: "patch", path: "/teams/{id}/members/{user_id}", from: "body" }],
  }),
  removeMember: mutation({
    access: "user",
    sessionOnly: true,
    summary: "Removes a member (owners and admins), or leaves the team (yourself); the last owner cannot.",
    input: member,
    output: z.undefined(),
    run: ({ deps, user }, input) =>
      removeMember(deps, user.id, input.id, input.user_id).then(() => undefined),
    rest: [{ method: "delete", path: "/teams/{id}/members/{user_id}", status: 204 }],
  }),
  invite: mutation({
    access: "user",
    sessionOnly: true,
    summary:
      "Invites an address to the team with a role (owners and admins): e-mails a link valid 7 days, answered once.",
    input: inviteInput.extend({ id: teamId }),
    output: madeInvitation,
    run: ({ deps, user }, { id, ...input }) => invite(deps, user.id, id, input),
    rest: [{ method: "post", path: "/teams/{id}/invitations", from: "body", status: 201 }],
  }),
  invitations: query({
    access: "user",
    summary: "A team's open invitations (owners and admins).",
    input: byTeam,
    output: invitationList,
    run: ({ deps, user }, input) => listInvitations(deps, user.id, input.id),
    rest: [{ method: "get", path: "/teams/{id}/invitations" }],
  }),
  revokeInvitation: mutation({
    access: "user",
    sessionOnly: true,
    summary: "Withdraws an open invitation (owners and admins).",
    input: z.strictObject({ id: teamId, invitation_id: z.string().max(100) }),
    output: invitationList,
    run: ({ deps, user }, input) => revokeInvitation(deps, user.id, input.id, input.invitation_id),
    rest: [{ method: "delete", path: "/teams/{id}/invitations/{invitation_id}" }],
  }),
  acceptInvitation: mutation({
    access: "user",
    sessionOnly: true,
    summary:
      "Accepts an invitation: signed in, with the verified address it was sent to (used, withdrawn, expired or another's: 4xx).",
    input: z.strictObject({ token: z.string().min(1).max(200) }),
    output: acceptedInvitation,
    run: ({ deps, user }, input) => acceptInvitation(deps, user.id, input.token),
    rest: [{ method: "post", path: "/invitations/{token}/accept" }],
  }),
};
