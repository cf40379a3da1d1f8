import type { ErrorCode } from "../../shared/errors";
import { AppError } from "../errors";

/** How a client words a failure: a message (its code follows from the answer), or a message and a code. */
export type Described = string | { code: ErrorCode; message: string };

/** What an export says when a service gave no answer at all. */
export const UNREACHABLE = "The service could not be reached.";
export const TIMED_OUT = "The service did not answer in time.";

/**
 * A third-party service's refusal or failure, in the service's own words where it gave some. It is an
 * AppError, so a service function that called the integration (a credential check) lets it through as it
 * is; the export runner reads `retryable` (429, 5xx, timeouts and network errors) to decide whether the
 * job tries again. Without an explicit code, a 401 (the user's credentials were refused) is BAD_REQUEST
 * and anything else SERVICE_UNAVAILABLE.
 */
export class IntegrationError extends AppError {
  constructor(
    described: Described,
    /** The service's HTTP status; null when it did not answer. */
    readonly serviceStatus: number | null,
    readonly body: unknown = null,
    readonly retryable = false,
    more: {
      /** A create whose answer never came (or was a 5xx): it may have succeeded. */
      unconfirmed?: boolean;
      /** How long the service asked to wait before trying again (the job waits at least this long). */
      retryAfterMs?: number | undefined;
    } = {},
  ) {
    const { code, message } =
      typeof described === "string"
        ? {
            code: serviceStatus === 401 ? ("BAD_REQUEST" as const) : ("SERVICE_UNAVAILABLE" as const),
            message: described,
          }
        : described;
    super(code, message);
    this.name = "IntegrationError";
    this.unconfirmed = more.unconfirmed ?? false;
    this.retryAfterMs = more.retryAfterMs;
  }
  readonly unconfirmed: boolean;
  readonly retryAfterMs: number | undefined;
}
