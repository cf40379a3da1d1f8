export function describeJira(status: number, body: unknown): string {
  const b = body as { errorMessages?: string[]; errors?: Record<string, string> } | string | null;
  const detail =
    typeof b === "string"
      ? b.slice(0, 200)
      : [...(b?.errorMessages ?? []), ...Object.values(b?.errors ?? {})].filter(Boolean).join("; ");
  if (status === 401) return "JIRA rejected the email or API token (401). Check them in Settings.";
  if (status === 403)
    return `JIRA refused the request (403)${detail ? `: ${detail}` : ". Your account may lack permission to create projects."}`;
  return `JIRA answered ${status}${detail ? `: ${detail}` : ""}`;
}
