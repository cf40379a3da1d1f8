import { describe, expect, it } from "vitest";
import { AppError, reportUnexpected, SERVER_ERROR_MESSAGE } from "./errors";
import { createLogger } from "./lib/logger";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger("debug", {}, (line) => lines.push(JSON.parse(line)));
  return { lines, log };
}

describe("errors are mapped in one place", () => {
  it("maps a code to its HTTP status, WebSocket close code and REST body", () => {
    const missing = new AppError("NOT_FOUND", "Task not found");
    expect([missing.status, missing.wsCloseCode, missing.toBody()]).toEqual([
      404,
      4404,
      { detail: "Task not found" },
    ]);
    const invalid = new AppError("UNPROCESSABLE_CONTENT", "Bad title", {
      fieldErrors: [{ field: "title", message: "Bad title" }],
    });
    expect(invalid.toBody()).toEqual({
      detail: "Bad title",
      errors: [{ field: "title", message: "Bad title" }],
    });
    expect(new AppError("UNAUTHORIZED", "x").wsCloseCode).toBe(4401);
    expect(new AppError("INTERNAL_SERVER_ERROR", "x").wsCloseCode).toBe(1011);
  });

  it("logs an unexpected error once, on the request's logger, and tells the client nothing of it", () => {
    const { lines, log } = capture();
    const requestLog = log.child({ requestId: "req-1" });
    const boom = new Error("database password is hunter2");
    const told = reportUnexpected(requestLog, boom, { path: "/api/tasks" });
    // The same error seen again by an outer layer is not logged twice.
    reportUnexpected(requestLog, boom, { path: "/api/tasks" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "error",
      msg: "unexpected error",
      requestId: "req-1",
      path: "/api/tasks",
    });
    expect(told).toBeInstanceOf(AppError);
    expect(told.code).toBe("INTERNAL_SERVER_ERROR");
    expect(told.message).toBe(SERVER_ERROR_MESSAGE);
    expect(told.toBody()).toEqual({ detail: SERVER_ERROR_MESSAGE });
  });

  it("passes an AppError through without logging it", () => {
    const { lines, log } = capture();
    const refused = new AppError("FORBIDDEN", "Not yours");
    expect(reportUnexpected(log, refused)).toBe(refused);
    expect(lines).toHaveLength(0);
  });
});
