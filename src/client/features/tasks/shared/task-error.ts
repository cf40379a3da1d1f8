import type { FieldError } from "../../../../shared/errors";
import { errorDetailOf, fieldErrorsOf, httpStatusOf, isNetworkError } from "../../../lib/api-error";

/** How a task screen classifies a failed load. */
export type TaskErrorType =
  | "NETWORK_ERROR"
  | "VALIDATION_ERROR"
  | "AUTH_ERROR"
  | "PERMISSION_ERROR"
  | "NOT_FOUND"
  | "SERVER_ERROR"
  | "UNKNOWN_ERROR";

export type TaskError = {
  type: TaskErrorType;
  message: string;
  /** The HTTP status, when a response arrived. */
  status?: number;
  /** Per-field validation messages, when the server sent them. */
  errors?: FieldError[];
};

export const TASK_ERROR_MESSAGES = {
  NETWORK_ERROR: "Network connection failed. Please check your internet connection.",
  BAD_REQUEST: "Invalid request. Please check your input.",
  AUTH_ERROR: "Authentication required. Please log in again.",
  PERMISSION_ERROR: "You do not have permission to perform this action.",
  NOT_FOUND: "The requested resource was not found.",
  UNPROCESSABLE: "Validation failed. Please check your input.",
  SERVER_ERROR: "Server error. Please try again later.",
  UNKNOWN_ERROR: "An unexpected error occurred. Please try again.",
} as const;

/**
 * Classifies a failed task call. A 401 needs no action here: the client's refresh link already
 * retried, and the session-expired flow clears the session and goes to /login.
 */
export function classifyTaskError(error: unknown): TaskError {
  if (isNetworkError(error)) return { type: "NETWORK_ERROR", message: TASK_ERROR_MESSAGES.NETWORK_ERROR };
  const status = httpStatusOf(error);
  if (status === undefined) return { type: "UNKNOWN_ERROR", message: TASK_ERROR_MESSAGES.UNKNOWN_ERROR };
  const detail = errorDetailOf(error);
  const fieldErrors = fieldErrorsOf(error);
  const withErrors = fieldErrors.length > 0 ? { errors: fieldErrors } : {};
  if (status === 400) {
    return {
      type: "VALIDATION_ERROR",
      message: detail ?? TASK_ERROR_MESSAGES.BAD_REQUEST,
      status,
      ...withErrors,
    };
  }
  if (status === 401) return { type: "AUTH_ERROR", message: TASK_ERROR_MESSAGES.AUTH_ERROR, status };
  if (status === 403)
    return { type: "PERMISSION_ERROR", message: TASK_ERROR_MESSAGES.PERMISSION_ERROR, status };
  if (status === 404) return { type: "NOT_FOUND", message: detail ?? TASK_ERROR_MESSAGES.NOT_FOUND, status };
  if (status === 422) {
    return {
      type: "VALIDATION_ERROR",
      message: detail ?? TASK_ERROR_MESSAGES.UNPROCESSABLE,
      status,
      ...withErrors,
    };
  }
  if (status >= 500) return { type: "SERVER_ERROR", message: TASK_ERROR_MESSAGES.SERVER_ERROR, status };
  return { type: "UNKNOWN_ERROR", message: TASK_ERROR_MESSAGES.UNKNOWN_ERROR, status };
}
