import { IntegrationError } from "../../../integrations/errors";

export const isStatus = (err: unknown, status: number) =>
  err instanceof IntegrationError && err.serviceStatus === status;

/** A create whose answer did not come (or was a 5xx) may have succeeded: the runner resumes the export. */
export async function createOnce<T>(send: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await send()).data;
  } catch (err) {
    if (err instanceof IntegrationError && (err.serviceStatus === null || err.serviceStatus >= 500)) {
      throw new IntegrationError(err.message, err.serviceStatus, err.body, true, { unconfirmed: true });
    }
    throw err;
  }
}
