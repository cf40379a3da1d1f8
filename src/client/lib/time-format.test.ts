import { describe, expect, it } from "vitest";
import { forecastDate } from "./time-format";

describe("forecastDate", () => {
  it("says the year only when it is not this year's (issue 40)", () => {
    const today = new Date(2026, 11, 7);
    expect(forecastDate(new Date(2026, 11, 22), today)).toBe("Tue, Dec 22");
    expect(forecastDate(new Date(2027, 10, 30), today)).toBe("Tue, Nov 30, 2027");
  });
});
