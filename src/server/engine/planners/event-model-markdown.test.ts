import { describe, expect, it } from "vitest";
import type { EventModelStructure } from "../../../shared/schemas/plan";
import { renderEventModelMarkdown } from "./event-model-markdown";

const model: EventModelStructure = {
  events: [
    { name: "BookingPlaced", description: "A guest booked a table." },
    { name: "BookingCancelled", description: "" },
  ],
  commands: [{ name: "PlaceBooking", description: "Ask for a table." }],
  read_models: [{ name: "TonightsBookings", description: "Bookings for tonight." }],
  user_interactions: [],
  automations: [{ name: "ReminderSender", description: "Sends a reminder the day before." }],
  swimlanes: [
    {
      name: "Bookings",
      description: "Guests book and cancel.",
      events: ["BookingPlaced", "BookingCancelled"],
      commands: ["PlaceBooking"],
      read_models: ["TonightsBookings"],
    },
  ],
  chapters: [
    {
      name: "Taking bookings",
      description: "From request to confirmation.",
      sub_chapters: [{ name: "Booking", slices: ["PlaceBooking -> BookingPlaced -> TonightsBookings"] }],
    },
  ],
};

describe("renderEventModelMarkdown", () => {
  it("renders every part of the structure, and only what is there", () => {
    const md = renderEventModelMarkdown(model, "Table bookings");
    expect(md.startsWith("# Event model: Table bookings")).toBe(true);
    expect(md).toContain("1 swimlane, 1 command, 2 events and 1 read model");
    expect(md).toContain("### Bookings");
    expect(md).toContain("- Events: `BookingPlaced`, `BookingCancelled`");
    expect(md).toContain("- **BookingPlaced**: A guest booked a table.");
    expect(md).toContain("- **BookingCancelled**\n");
    expect(md).toContain("## Automations");
    expect(md).not.toContain("## User interactions");
    expect(md).toContain("#### Booking\n\n- PlaceBooking -> BookingPlaced -> TonightsBookings");
  });

  it("keeps model text from turning into HTML or markdown structure", () => {
    const md = renderEventModelMarkdown({
      ...model,
      events: [{ name: "<script>alert(1)</script>", description: "# not a heading\nsecond line" }],
    });
    expect(md).not.toContain("<script>");
    expect(md).toContain("&lt;script>");
    expect(md).toContain("\\# not a heading second line");
  });
});
