import { type ErrorCode, errorCodes, type FieldError } from "../shared/errors";

/** The one error services throw; adapters map `code` to an HTTP status or a tRPC code. */
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
}

export const notFound = (what = "The requested resource was not found.") => new AppError("NOT_FOUND", what);
