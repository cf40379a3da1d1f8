import type { EvalCase } from "../case";

export const newEnergyMonitorPi: EvalCase = {
  id: "new-energy-monitor-pi",
  kind: "one-liner with a comma list (IoT)",
  work_kind: "product",
  description:
    "Home energy monitor on a Raspberry Pi: read the smart meter over the P1 port every 10 seconds, a live power dashboard, daily and monthly usage charts, and a buzzer alarm when we go over the 4.2 kW contract cap.",
  requirements: [
    { id: "R1", text: "Read the smart meter over the P1 port every 10 seconds", match: ["P1"] },
    { id: "R2", text: "A live power dashboard", match: ["dashboard"] },
    { id: "R3", text: "Daily and monthly usage charts", match: ["chart"] },
    { id: "R4", text: "A buzzer alarm over the contract cap", match: ["alarm"] },
  ],
  technologies: ["raspberry-pi"],
  non_goals: [],
  separate: [["R1", "R2", "R3", "R4"]],
  independent: [["R3", "R4"]],
  inspired_by:
    "https://github.com/andros21/mcce (README: a Raspberry Pi reading a power meter, an alarm over the contract cap, daily history and charts) and https://leehonan.com/meterman",
};
