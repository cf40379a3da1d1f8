import { useMutation } from "@tanstack/react-query";
import { Link, useParams } from "wouter";
import { AuthCard } from "../../components/auth-card";
import { usePageMeta } from "../../components/use-page-meta";
import { errorDetailOf, REQUEST_FAILED_MESSAGE } from "../../lib/api-error";
import { useAuth } from "../../lib/auth";
import { useTRPC } from "../../lib/trpc";

/**
 * /invitations/{token}: the link a team's invitation mails (issue 41). Signed in (the route asks first),
 * the person accepts with one button; the server checks the address, and a refusal says why.
 */
export default function InvitationPage() {
  usePageMeta({ title: "Team invitation", path: "/invitations", noIndex: true });
  const { token = "" } = useParams<{ token: string }>();
  const { user } = useAuth();
  const trpc = useTRPC();
  const accept = useMutation(trpc.teams.acceptInvitation.mutationOptions({ retry: false }));
  return (
    <AuthCard title="Team invitation">
      {accept.isSuccess ? (
        <>
          <p role="status" className="text-success">
            You joined “{accept.data.team_name}” as {accept.data.role === "admin" ? "an" : "a"}{" "}
            {accept.data.role}. Its plans are on your dashboard.
          </p>
          <Link href="/dashboard" className="btn btn-primary">
            Go to Dashboard
          </Link>
        </>
      ) : (
        <>
          <p>
            You were invited to a team on Atomize. Accepting adds you to it as{" "}
            <span className="font-medium">{user?.email}</span>; the invitation must have been sent to this
            address.
          </p>
          {accept.isError && (
            <p role="alert" className="text-error">
              {errorDetailOf(accept.error) ?? REQUEST_FAILED_MESSAGE}
            </p>
          )}
          <button
            type="button"
            className="btn btn-primary"
            disabled={accept.isPending || !token}
            onClick={() => accept.mutate({ token })}
          >
            {accept.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Accept the invitation
          </button>
        </>
      )}
    </AuthCard>
  );
}
