/**
 * A planner failure with a message meant for the user. `permanent` errors (output still invalid after
 * retries, a rejected API key) fail the task at once; others (rate limits, timeouts, 5xx) let the job
 * queue retry with backoff first.
 */
export class PlannerError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PlannerError";
  }
}
