import type { EvalCase } from "../case";

export const djangoSamlSso: EvalCase = {
  id: "django-saml-sso",
  kind: "change to an existing system",
  description: `Add SAML single sign-on to our existing Django app. Enterprise customers want to log in through their IdP (Okta and Azure AD are the two we've been asked about). Each customer org configures its own IdP metadata in our admin. Users should be just-in-time provisioned on first login and mapped to the org by email domain. Password login must keep working for orgs without SSO, and org admins can enforce SSO-only for their org. Need an audit log entry for every SSO login.`,
  repository_summary: `acme/portal: a Django 4.2 monolith (Python 3.11) on PostgreSQL 15, Celery workers with Redis, server-rendered templates with a little htmx.
Apps: accounts (custom User model, django-allauth for password login), orgs, billing, audit.
Tests with pytest-django. Deployed on Heroku.`,
  requirements: [
    { id: "R1", text: "SAML single sign-on", match: ["SAML"] },
    { id: "R2", text: "Each org configures its own IdP metadata in the admin", match: ["metadata"] },
    { id: "R3", text: "Just-in-time provisioning on first login", match: ["provision"] },
    { id: "R4", text: "Users mapped to the org by email domain", match: ["domain"] },
    { id: "R5", text: "Password login keeps working for orgs without SSO", match: ["password"] },
    { id: "R6", text: "Org admins can enforce SSO-only", match: ["enforce"] },
    { id: "R7", text: "An audit log entry for every SSO login", match: ["audit"] },
    { id: "R8", text: "Works with Okta", match: ["Okta"] },
    { id: "R9", text: "Works with Azure AD", match: ["Azure AD"] },
  ],
  technologies: [
    "django",
    "okta",
    "azure-ad",
    "python",
    "postgresql",
    "celery",
    "redis",
    "htmx",
    "pytest",
    "heroku",
  ],
  non_goals: [],
};
