import type { FieldError } from "../../shared/errors";

/** What the server's tRPC error formatter puts in `error.data` (src/server/trpc/init.ts). */
export type ApiErrorData = {
  code?: string;
  httpStatus?: number;
  detail?: string;
  errors?: FieldError[];
};

export const NETWORK_ERROR_MESSAGE = "Network error. Please check your connection.";
export const REQUEST_FAILED_MESSAGE = "Request failed. Please try again.";

/** Generic request errors: the message for a status when the server gave no detail. */
const STATUS_MESSAGES: Record<number, string> = {
  400: "Invalid request. Please check your input.",
  401: "Please log in to continue.",
  403: "You don't have permission to perform this action.",
  404: "The requested resource was not found.",
  500: "Server error. Please try again later.",
  503: "Service temporarily unavailable. Please try again later.",
};
const OTHER_STATUS_MESSAGE = "An error occurred.";

/**
 * A tRPC client error, recognised by its name rather than by `instanceof`: the public pages check errors
 * too, and must not import the tRPC client to do it (it loads with the signed-in code, lib/runtime.ts).
 */
type TRPCClientErrorLike = Error & { data?: unknown; meta?: Record<string, unknown> };

function isTRPCClientError(error: unknown): error is TRPCClientErrorLike {
  return error instanceof Error && error.name === "TRPCClientError";
}

/** A failed call of the public REST API (lib/public-query.ts): its status and `{ detail }` body. */
export class PublicApiError extends Error {
  override name = "PublicApiError";
  constructor(
    readonly status: number,
    readonly detail?: string,
  ) {
    super(detail || `HTTP ${status}`);
  }
}

export function apiErrorData(error: unknown): ApiErrorData | undefined {
  if (error instanceof PublicApiError) {
    return { httpStatus: error.status, ...(error.detail ? { detail: error.detail } : {}) };
  }
  if (!isTRPCClientError(error)) return undefined;
  const data: unknown = error.data;
  return data && typeof data === "object" ? (data as ApiErrorData) : undefined;
}

/** The HTTP status of a failed call, or undefined when no response arrived. */
export function httpStatusOf(error: unknown): number | undefined {
  const status = apiErrorData(error)?.httpStatus;
  if (typeof status === "number") return status;
  if (isTRPCClientError(error)) {
    // A response that was not a tRPC error body (e.g. a proxy's 502 page) still carries its status.
    const response = error.meta?.response;
    if (
      response &&
      typeof response === "object" &&
      "status" in response &&
      typeof response.status === "number"
    ) {
      return response.status;
    }
  }
  return undefined;
}

/** The server's human-readable detail, when it sent one. */
export function errorDetailOf(error: unknown): string | undefined {
  const detail = apiErrorData(error)?.detail;
  return typeof detail === "string" && detail.trim() !== "" ? detail : undefined;
}

/** The server's per-field validation messages (`error.data.errors`). */
export function fieldErrorsOf(error: unknown): FieldError[] {
  const errors = apiErrorData(error)?.errors;
  return Array.isArray(errors) ? errors : [];
}

export function isUnauthorized(error: unknown): boolean {
  return apiErrorData(error)?.code === "UNAUTHORIZED" || httpStatusOf(error) === 401;
}

export function isClientError(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500;
}

/** True when the call failed before any response arrived (offline, DNS, time-out, aborted). */
export function isNetworkError(error: unknown): boolean {
  return isTRPCClientError(error) && httpStatusOf(error) === undefined;
}

/** Generic request errors: the detail when given, else a message by status. */
export function getErrorMessage(error: unknown): string {
  const detail = errorDetailOf(error);
  if (detail) return detail;
  const status = httpStatusOf(error);
  if (status !== undefined) return STATUS_MESSAGES[status] ?? OTHER_STATUS_MESSAGE;
  if (isTRPCClientError(error)) return NETWORK_ERROR_MESSAGE;
  return REQUEST_FAILED_MESSAGE;
}
