/** A UUID in either letter case: how ids of tasks, posts, subscriptions and exports arrive in paths. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID as the database writes it (lowercase); signed tokens carry ids only in this form. */
export function isLowercaseUuid(value: string): boolean {
  return UUID_PATTERN.test(value) && value === value.toLowerCase();
}
