import { describe, expect, it } from "vitest";
import { estimateRequirement } from "./estimate";

describe("estimateRequirement", () => {
  it("is not driven by punctuation", () => {
    const base = estimateRequirement("Delete habit").hours;
    expect(estimateRequirement("Tap, tap, tap").hours).toBe(base);
    expect(estimateRequirement("Edit habit name, frequency, and category").hours).toBe(base);
    expect(estimateRequirement("Source code at https://example.com/a, b, c").hours).toBe(base);
  });

  it("grows with the operations and the kinds of work a requirement names", () => {
    const base = estimateRequirement("Delete habit").hours;
    expect(estimateRequirement("Users can create, edit and delete habits").hours).toBeGreaterThan(base);
    expect(estimateRequirement("Pay invoices through Stripe").hours).toBeGreaterThan(base);
    expect(estimateRequirement("An audit trail of every change, with e-signatures").hours).toBeGreaterThan(
      base,
    );
    expect(
      estimateRequirement(
        "Users can create, edit, delete, share, export and import habits through the API with audit",
      ).hours,
    ).toBeLessThanOrEqual(16);
  });
});
