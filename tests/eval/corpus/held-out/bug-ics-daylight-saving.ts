import type { EvalCase } from "../../case";

export const hoBugIcsDaylightSaving: EvalCase = {
  id: "ho-bug-ics-daylight-saving",
  kind: "bug report with steps, an .ics excerpt and a server log (calendar export)",
  work_kind: "bug",
  description: `Exported classes are an hour early since the clocks went back

Since the clocks changed on 27 October, every class in the .ics file members download from My bookings > "Add to calendar" shows up an hour early in Google Calendar and Apple Calendar. Classes before the change are fine. The public timetable feed that people subscribe to (webcal://lotusroom.example/timetable.ics) has the same problem, including the recurring weekly classes.

Steps to reproduce
1. Book the Tuesday 18:30 Vinyasa class for any week after 27 October.
2. My bookings > Add to calendar, which downloads bookings.ics.
3. Import it into a calendar set to Europe/London.
4. The class shows at 17:30.

Expected: 18:30 local time, whatever the week, in any calendar app.
Actual: 17:30 for every class after the change.

From the file:
\`\`\`
BEGIN:VEVENT
UID:booking-48213@lotusroom.example
DTSTART:20241029T173000Z
DTEND:20241029T183000Z
SUMMARY:Vinyasa Flow with Maya
END:VEVENT
\`\`\`

Server log when generating it:
\`\`\`
[2024-10-30 08:12:44] WARNING calendar.export: naive datetime 2024-10-29 18:30:00, assuming UTC+01:00
\`\`\`

I think the export takes the studio's UTC offset once (it was +01:00 in summer) instead of converting each class. Probably it should write DTSTART;TZID=Europe/London with a VTIMEZONE block rather than a fixed offset. Please check it in both Google Calendar and Apple Calendar, since they treat floating times differently.`,
  repository_summary: `lotusroom/booking: a Django 5.0 site (Python 3.12) on PostgreSQL for a yoga studio; the class schedule lives in the timetable app and the calendar export in calendar/export.py.`,
  requirements: [
    {
      id: "R1",
      text: 'The "Add to calendar" download shows the right local time',
      match: ["Add to calendar"],
    },
    { id: "R2", text: "The public timetable feed shows the right local time", match: ["feed"] },
    { id: "R3", text: "Recurring weekly classes are right across the change", match: ["recurring"] },
    { id: "R4", text: "Times written with TZID=Europe/London and a VTIMEZONE", match: ["TZID"] },
    { id: "R5", text: "Checked in Google Calendar and Apple Calendar", match: ["Apple"] },
  ],
  technologies: ["django", "python", "postgresql"],
  non_goals: [],
  not_work: [
    { text: "the booked class in the steps", match: ["Vinyasa"] },
    { text: "the .ics excerpt", match: ["VEVENT"] },
    { text: "the teacher in the excerpt", match: ["Maya"] },
    { text: "the server log line", match: ["naive datetime"] },
  ],
  independent: [["R1", "R2"]],
  inspired_by:
    "https://github.com/gt-scheduler/website/issues/265 and https://github.com/pretalx/pretalx/issues/2081 (.ics exports an hour off around daylight saving)",
};
