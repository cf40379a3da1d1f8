import { describe, expect, it } from "vitest";
import { leftOut, readGuidance } from "./guidance";

describe("readGuidance", () => {
  it("reads the detail directives", () => {
    expect(readGuidance("less detail please").lessDetail).toBe(true);
    expect(readGuidance("Keep it high-level").lessDetail).toBe(true);
    expect(readGuidance("more detail on the API").moreDetail).toBe(true);
    expect(readGuidance("split by user role")).toMatchObject({
      lessDetail: false,
      moreDetail: false,
      leaveOut: [],
    });
    expect(readGuidance(undefined)).toEqual({ lessDetail: false, moreDetail: false, leaveOut: [], text: "" });
  });

  it("leaves out what the team already has or wants skipped", () => {
    const g = readGuidance("We already have auth. Skip the deployment; no analytics");
    expect(g.leaveOut.sort()).toEqual(["analytics", "auth", "deployment"]);
    expect(leftOut(g, "Authentication: sign up and sign in")).toBe(true);
    expect(leftOut(g, "Deploy the first release")).toBe(true); // "deployment" covers "deploy"
    expect(leftOut(g, "Write the README")).toBe(false);
    expect(leftOut(g, "Set up deployment pipelines")).toBe(true);
    expect(leftOut(g, "Search recipes by ingredient")).toBe(false);
    expect(leftOut(readGuidance("split by user role"), "Authentication")).toBe(false);
  });
});
