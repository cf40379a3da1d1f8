import { describe, expect, it } from "vitest";
import { estimateRequirement } from "./estimate";

describe("estimateRequirement", () => {
  it("is not driven by punctuation, repeats or links", () => {
    const base = estimateRequirement("Delete habit").hours;
    expect(estimateRequirement("Tap, tap, tap").hours).toBe(base);
    expect(estimateRequirement("Edit habit name, frequency, and category").hours).toBe(
      estimateRequirement("Edit habit name frequency and category").hours,
    );
    expect(estimateRequirement("Source code at https://example.com/a, b, c").hours).toBeLessThanOrEqual(
      base + 0.5,
    );
  });

  it("grows a little with each thing a requirement names, so estimates spread as the work does", () => {
    expect(estimateRequirement("Edit habit name, frequency, and category").hours).toBeGreaterThan(
      estimateRequirement("Delete habit").hours,
    );
    // One form's fields are one edit: less than three operations on the same thing.
    expect(estimateRequirement("Edit habit name, frequency, and category").hours).toBeLessThan(
      estimateRequirement("Users can create, edit and delete habits").hours,
    );
    const hours = [
      "Delete habit",
      "Show the streak on each habit card",
      "Remind me at a chosen time",
      "Weekly summary of completed habits per category",
      "Edit habit name, frequency, and category",
      "Share a habit with a friend by link",
      "Dark mode",
      "Archive old habits",
      "Export my history as CSV",
      "Sign in with e-mail and password",
    ].map((t) => estimateRequirement(t).hours);
    const commonest = Math.max(...hours.map((h) => hours.filter((x) => x === h).length));
    expect(commonest / hours.length).toBeLessThanOrEqual(0.3);
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
