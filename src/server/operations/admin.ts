import { z } from "zod";
import { publicUser } from "../../shared/schemas/auth";
import { setRole } from "../services/auth/set-role";
import { toPublicUser } from "../services/auth/to-public-user";
import { mutation } from "./define";

/** Administration of accounts: the tRPC `admin` router (the CLI `npm run make-admin` does the same from a shell). */
export const adminOperations = {
  setUserRole: mutation({
    access: "admin",
    // A privilege: granted from a signed-in session, never with an API token (decision 008).
    sessionOnly: true,
    summary: "Grants or withdraws the admin role.",
    input: z.strictObject({
      email: z.email().transform((e) => e.toLowerCase()),
      role: z.enum(["user", "admin"]),
    }),
    output: publicUser,
    run: async ({ deps }, input) => toPublicUser(await setRole(deps, input.email, input.role)),
  }),
};
