import { type ErrorCode, errorCodes, type FieldError } from "../shared/errors";
import type { Logger } from "./lib/logger";

/**
 * WebSocket close codes per error code: 4000 + the HTTP status for the application's own refusals (RFC
 * 6455 leaves 4000-4999 to applications), the protocol's codes where one fits.
 */
const WS_CLOSE_CODES: Record<ErrorCode, number> = {
  BAD_REQUEST: 4400,
  UNAUTHORIZED: 4401,
  FORBIDDEN: 4403,
  NOT_FOUND: 4404,
  CONFLICT: 4409,
  PAYLOAD_TOO_LARGE: 1009,
  UNPROCESSABLE_CONTENT: 4422,
  TOO_MANY_REQUESTS: 4429,
  INTERNAL_SERVER_ERROR: 1011,
  BAD_GATEWAY: 1014,
  SERVICE_UNAVAILABLE: 1013,
};

/** What every transport says when something unexpected failed: never the error itself. */
export const SERVER_ERROR_MESSAGE = "Server error. Please try again later.";

/**
 * The one error the server throws, in services, adapters and middleware alike. Its code maps, here and
 * only here, to an HTTP status, a tRPC code (the same name), the `{ detail, errors }` body and a
 * WebSocket close code.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { fieldErrors?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: extra.cause });
    this.name = "AppError";
    this.code = code;
    this.fieldErrors = extra.fieldErrors;
    this.headers = extra.headers;
  }

  get status(): number {
    return errorCodes[this.code];
  }

  /** The close code for a WebSocket refused with this error. */
  get wsCloseCode(): number {
    return WS_CLOSE_CODES[this.code];
  }

  /** The REST body: `{ detail }`, with `errors` when fields are at fault. */
  toBody(): { detail: string; errors?: FieldError[] } {
    return this.fieldErrors ? { detail: this.message, errors: this.fieldErrors } : { detail: this.message };
  }
}

export const notFound = (what = "The requested resource was not found.") => new AppError("NOT_FOUND", what);

/** Errors already logged, so one that crosses several layers is logged once. */
const logged = new WeakSet<object>();

/**
 * Logs an unexpected error (anything but an AppError) once, at error level, on the request's own logger
 * (which carries its request id), and returns the AppError the client is told instead.
 */
export function reportUnexpected(log: Logger, err: unknown, fields: Record<string, unknown> = {}): AppError {
  if (err instanceof AppError) return err;
  if (typeof err === "object" && err !== null) {
    if (!logged.has(err)) log.error("unexpected error", { ...fields, err });
    logged.add(err);
  } else {
    log.error("unexpected error", { ...fields, err });
  }
  return new AppError("INTERNAL_SERVER_ERROR", SERVER_ERROR_MESSAGE, { cause: err });
}
