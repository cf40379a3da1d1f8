import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import {
  INVITABLE_ROLES,
  TEAM_NAME_MAX,
  TEAM_ROLES,
  type Team,
  type TeamRole,
} from "../../../shared/schemas/teams";
import { EmptyState } from "../../components/empty-state";
import { ErrorAlert } from "../../components/error-alert";
import { Spinner } from "../../components/spinner";
import { useToast } from "../../components/toast";
import { errorDetailOf } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { useTRPC } from "../../lib/trpc";

const ROLE_TEXT: Record<TeamRole, string> = {
  owner: "Owner: everything, and who owns the team",
  admin: "Admin: members, invitations and settings",
  member: "Member: plans, edits, claims, comments",
  viewer: "Viewer: reads and comments",
};

/**
 * Settings → Teams (issue 41): the person's teams; a new one; and for a chosen team its members, their
 * roles (owners and admins change them), and invitations by e-mail (a link valid 7 days).
 */
export function TeamsTab() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const teams = useQuery(trpc.teams.list.queryOptions());
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const create = useMutation(
    trpc.teams.create.mutationOptions({
      retry: false,
      onSuccess: (team) => {
        setName("");
        setError(null);
        setOpenId(team.id);
        void queryClient.invalidateQueries({ queryKey: trpc.teams.list.queryKey() });
      },
      onError: (err) => setError(errorDetailOf(err) ?? "The team could not be made."),
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name });
  };
  const open = teams.data?.teams.find((t) => t.id === openId) ?? teams.data?.teams[0];
  return (
    <div className="flex flex-col gap-4">
      <section className="card border border-base-300 bg-base-200" aria-labelledby={`${id}-new`}>
        <form className="card-body gap-3 p-4" onSubmit={submit} noValidate>
          <h2 id={`${id}-new`} className="card-title text-lg">
            New team
          </h2>
          <p className="text-sm text-base-content/70">
            A team plans together: its members see its plans, claim tasks and, by role, change them.
          </p>
          <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-name`}>
            Team name
            <input
              id={`${id}-name`}
              className="input input-bordered w-full max-w-md"
              value={name}
              maxLength={TEAM_NAME_MAX}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </label>
          {error && (
            <p id={`${id}-error`} role="alert" className="text-sm text-error">
              {error}
            </p>
          )}
          <div>
            <button
              type="submit"
              className="btn btn-primary btn-sm"
              disabled={create.isPending || !name.trim()}
            >
              {create.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
              Create team
            </button>
          </div>
        </form>
      </section>
      {teams.isPending ? (
        <Spinner label="Loading your teams" />
      ) : !teams.data || teams.data.teams.length === 0 ? (
        <EmptyState title="No teams yet">
          Create one above, or accept an invitation from a team's admin.
        </EmptyState>
      ) : (
        <>
          <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-pick`}>
            Team
            <select
              id={`${id}-pick`}
              className="select select-bordered w-full max-w-md"
              value={open?.id}
              onChange={(e) => setOpenId(e.target.value)}
            >
              {teams.data.teams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({t.role}, {t.members} {t.members === 1 ? "member" : "members"})
                </option>
              ))}
            </select>
          </label>
          {open && <TeamCard key={open.id} team={open} />}
        </>
      )}
    </div>
  );
}

function TeamCard({ team }: { team: Team }) {
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const id = useId();
  const manages = team.role === "owner" || team.role === "admin";
  const members = useQuery(trpc.teams.members.queryOptions({ id: team.id }));
  const invitations = useQuery({ ...trpc.teams.invitations.queryOptions({ id: team.id }), enabled: manages });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.teams.members.queryKey({ id: team.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.teams.invitations.queryKey({ id: team.id }) }),
      queryClient.invalidateQueries({ queryKey: trpc.teams.list.queryKey() }),
    ]);
  const failed = (err: unknown) => toast.error(errorDetailOf(err) ?? "That did not work. Try again.");
  const setRole = useMutation(
    trpc.teams.setRole.mutationOptions({ retry: false, onSuccess: refresh, onError: failed }),
  );
  const remove = useMutation(
    trpc.teams.removeMember.mutationOptions({ retry: false, onSuccess: refresh, onError: failed }),
  );
  const [email, setEmail] = useState("");
  const [role, setRoleInput] = useState<(typeof INVITABLE_ROLES)[number]>("member");
  const [made, setMade] = useState<string | null>(null);
  const [inviteError, setInviteError] = useState<string | null>(null);
  const invite = useMutation(
    trpc.teams.invite.mutationOptions({
      retry: false,
      onSuccess: (inv) => {
        setEmail("");
        setInviteError(null);
        setMade(
          inv.emailed
            ? `Invitation sent to ${inv.email}.`
            : `The e-mail could not be sent: give ${inv.email} this link: ${inv.url}`,
        );
        void refresh();
      },
      onError: (err) => setInviteError(errorDetailOf(err) ?? "The invitation could not be made."),
    }),
  );
  const revoke = useMutation(
    trpc.teams.revokeInvitation.mutationOptions({ retry: false, onSuccess: refresh, onError: failed }),
  );
  const settings = useMutation(
    trpc.teams.update.mutationOptions({
      retry: false,
      onSuccess: (t) => {
        toast.success(
          t.requires_approval
            ? "The team's plans now need an approval before export."
            : "The team's plans no longer need an approval before export.",
        );
        void refresh();
      },
      onError: failed,
    }),
  );
  return (
    <section className="card border border-base-300 bg-base-200" aria-labelledby={`${id}-title`}>
      <div className="card-body gap-4 p-4">
        <h2 id={`${id}-title`} className="card-title text-lg break-words">
          {team.name}
        </h2>
        <p className="text-sm text-base-content/70">You are {ROLE_TEXT[team.role].toLowerCase()}.</p>
        <label className="flex cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            className="toggle toggle-sm mt-0.5"
            checked={team.requires_approval}
            disabled={!manages || settings.isPending}
            onChange={(e) => settings.mutate({ id: team.id, requires_approval: e.target.checked })}
          />
          <span className="text-sm">
            <span className="font-medium">Plans need approval</span>
            <span className="block text-base-content/70">
              Every plan of the team is approved by an owner or admin before it is exported to JIRA, Trello or
              GitHub{manages ? "" : " (owners and admins change this)"}.
            </span>
          </span>
        </label>
        <div className="overflow-x-auto">
          <table className="table table-sm" aria-label={`Members of ${team.name}`}>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(members.data?.members ?? []).map((m) => (
                <tr key={m.user_id} data-testid="team-member">
                  <td className="break-words">
                    {m.name}
                    <span className="block text-xs text-base-content/70">{m.email}</span>
                  </td>
                  <td>
                    {manages && m.user_id !== user?.id ? (
                      <select
                        className="select select-bordered select-sm"
                        aria-label={`Role of ${m.name}`}
                        value={m.role}
                        disabled={setRole.isPending}
                        onChange={(e) =>
                          setRole.mutate({
                            id: team.id,
                            user_id: m.user_id,
                            role: e.target.value as TeamRole,
                          })
                        }
                      >
                        {TEAM_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td className="text-right">
                    {(manages || m.user_id === user?.id) && (
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs"
                        disabled={remove.isPending}
                        onClick={() => remove.mutate({ id: team.id, user_id: m.user_id })}
                      >
                        {m.user_id === user?.id ? "Leave" : `Remove ${m.name}`}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {manages && (
          <form
            className="flex flex-col gap-2"
            aria-label="Invite someone"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              invite.mutate({ id: team.id, email, role });
            }}
          >
            <h3 className="font-medium">Invite someone</h3>
            <div className="flex flex-wrap items-end gap-2">
              <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-email`}>
                E-mail address
                <input
                  id={`${id}-email`}
                  type="email"
                  className="input input-bordered input-sm w-64 max-w-full"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
              </label>
              <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-role`}>
                Role
                <select
                  id={`${id}-role`}
                  className="select select-bordered select-sm"
                  value={role}
                  onChange={(e) => setRoleInput(e.target.value as (typeof INVITABLE_ROLES)[number])}
                >
                  {INVITABLE_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="submit"
                className="btn btn-primary btn-sm"
                disabled={invite.isPending || !email.trim()}
              >
                Send invitation
              </button>
            </div>
            <ErrorAlert message={inviteError} line />
            {made && (
              <p role="status" className="break-words text-sm">
                {made}
              </p>
            )}
          </form>
        )}
        {manages && (invitations.data?.invitations.length ?? 0) > 0 && (
          <div>
            <h3 className="font-medium">Open invitations</h3>
            <ul className="mt-1 flex flex-col gap-1 text-sm">
              {invitations.data!.invitations.map((inv) => (
                <li key={inv.id} className="flex flex-wrap items-center gap-2" data-testid="team-invitation">
                  <span className="break-words">
                    {inv.email} ({inv.role}), until {new Date(inv.expires_at).toLocaleDateString()}
                  </span>
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate({ id: team.id, invitation_id: inv.id })}
                  >
                    Withdraw
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}
