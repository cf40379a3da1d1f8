/** A failure to report on stderr and exit 1: the server refused, could not be reached, a file failed. */
export class CliError extends Error {}

/** The command line itself is wrong: exit 2 with a pointer to the usage text. */
export class UsageError extends Error {}
