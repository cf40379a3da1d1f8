import { expect } from "vitest";
import { registerUser, TestClient } from "./http-client";
import type { TestServer } from "./server";
import { verifyEmailThroughOutbox } from "./verify-email";

/** A person with a verified address, signed in. */
export async function person(server: TestServer, name: string, verified = true) {
  const client = new TestClient(server.url);
  const email = `${name.toLowerCase()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const reg = await registerUser(client, { email, full_name: name });
  if (verified) await verifyEmailThroughOutbox(server, email);
  return { client, email, id: reg.user.id as string, accessToken: reg.access_token };
}
export type Person = Awaited<ReturnType<typeof person>>;

/** An owner with a team, and an admin, a member and a viewer who accepted their invitations. */
export async function teamWithMembers(server: TestServer) {
  const owner = await person(server, "Olive");
  const made = await owner.client.post("/api/teams", { name: "Platform" });
  expect(made.status).toBe(201);
  const teamId = made.json.id as string;
  const join = async (name: string, role: string) => {
    const p = await person(server, name);
    const inv = await owner.client.post(`/api/teams/${teamId}/invitations`, { email: p.email, role });
    expect(inv.status, inv.text).toBe(201);
    const accepted = await p.client.post(`/api/invitations/${inv.json.token}/accept`, {});
    expect(accepted.status, accepted.text).toBe(200);
    return p;
  };
  return {
    owner,
    teamId,
    admin: await join("Ada", "admin"),
    member: await join("Max", "member"),
    viewer: await join("Vera", "viewer"),
  };
}
