// Runs the fake Google issuer as its own process for the browser tests (see playwright.config.ts).
import { startFakeGoogle } from "./google-oidc";

const fake = await startFakeGoogle({
  clientId: process.env.FAKE_GOOGLE_CLIENT_ID ?? "e2e-client",
  clientSecret: process.env.FAKE_GOOGLE_CLIENT_SECRET ?? "e2e-secret",
  port: Number(process.env.FAKE_GOOGLE_PORT ?? 8182),
});
fake.setUser({
  sub: "e2e-google-sub",
  email: "grace.google@example.com",
  email_verified: true,
  name: "Grace Google",
});
console.info(`fake Google issuer at ${fake.issuer}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
