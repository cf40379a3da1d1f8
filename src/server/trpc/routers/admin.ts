import { z } from "zod";
import { setRole, toPublicUser } from "../../services/auth/accounts";
import { adminProcedure, router } from "../init";

export const adminRouter = router({
  /** Grants or withdraws the admin role (the CLI `npm run make-admin` does the same from a shell). */
  setUserRole: adminProcedure
    .input(
      z.strictObject({ email: z.email().transform((e) => e.toLowerCase()), role: z.enum(["user", "admin"]) }),
    )
    .mutation(async ({ ctx, input }) => toPublicUser(await setRole(ctx.deps, input.email, input.role))),
});
