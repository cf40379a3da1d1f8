import { describe, expect, it } from "vitest";
import { type LoginField, loginErrors, type RegisterField, registerErrors } from "./auth-rules";
import { loginInput, registerInput } from "./schemas/auth";

/** The first message per field the schema gives, named as the rules name their fields. */
function schemaFirst(
  schema: typeof loginInput | typeof registerInput,
  input: Record<string, unknown>,
  names: Record<string, string>,
) {
  const parsed = schema.safeParse(input);
  const out: Record<string, string> = {};
  if (parsed.success) return out;
  for (const issue of parsed.error.issues) {
    const field = names[String(issue.path[0])];
    if (field && !out[field]) out[field] = issue.message;
  }
  return out;
}

const emails = [
  "",
  "  ",
  "ada@example.com",
  " Ada@Example.COM ",
  "ada@",
  "a b@example.com",
  `${"a".repeat(250)}@x.io`,
];

describe("the zod-free sign-in rules say what loginInput says", () => {
  const passwords = ["", " ", "x", "correct horse battery staple"];
  for (const email of emails)
    for (const password of passwords)
      it(`${JSON.stringify(email)} / ${JSON.stringify(password)}`, () => {
        const values: Record<LoginField, string> = { email, password };
        expect(loginErrors(values)).toEqual(
          schemaFirst(loginInput, values, { email: "email", password: "password" }),
        );
      });
});

describe("the zod-free registration rules say what registerInput says", () => {
  const cases: Record<RegisterField, string>[] = [];
  for (const email of emails)
    for (const password of [
      "",
      "short",
      "Password123",
      "x".repeat(129),
      "ada@example.com1",
      "Tr1cky-Wombat-42",
    ])
      cases.push({ email, password, fullName: "" });
  cases.push({ email: "ada@example.com", password: "Tr1cky-Wombat-42", fullName: ` ${"n".repeat(200)} ` });
  cases.push({ email: "ada@example.com", password: "Tr1cky-Wombat-42", fullName: "n".repeat(201) });
  for (const values of cases)
    it(`${JSON.stringify(values.email)} / ${JSON.stringify(values.password)} / ${values.fullName.length}`, () => {
      const input = { email: values.email, password: values.password, full_name: values.fullName };
      expect(registerErrors(values)).toEqual(
        schemaFirst(registerInput, input, { email: "email", password: "password", full_name: "fullName" }),
      );
    });
});
