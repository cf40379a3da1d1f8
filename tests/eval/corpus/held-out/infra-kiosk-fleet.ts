import type { EvalCase } from "../../case";

export const hoInfraKioskFleet: EvalCase = {
  id: "ho-infra-kiosk-fleet",
  kind: "infrastructure request with a list (configuration management of a device fleet)",
  work_kind: "infrastructure",
  description: `Ansible for the museum's gallery kiosks

We have 40 Raspberry Pi 4 kiosks around the galleries, each showing the exhibit guide full screen in a browser. Every one was set up by hand from a two-page Word document, no two are quite the same, and when the SD card in the Egyptian room died it took a whole day to rebuild.

What we want:
- An Ansible inventory of all kiosks grouped by gallery, with each kiosk's start URL as a host variable.
- One playbook that takes a freshly flashed card to a working kiosk: the browser in kiosk mode on boot, screen blanking off, the display rotated on the portrait screens, the mouse cursor hidden.
- Hardening: SSH keys only with password login off, a firewall that only allows SSH from the office network, unattended security updates.
- A nightly reboot at 04:00, and a watchdog that restarts the browser if the page crashes.
- A VPN tunnel from each kiosk back to the office, so we can reach the ones on the guest Wi-Fi.
- Changes rolled out to one gallery first and then the rest in batches, so a bad change can't take out the whole museum.
- A health check playbook that reports which kiosks are unreachable or showing an error page.
- All of it in our Git repository, with a README a volunteer can follow.

Not in scope: replacing the content system behind the guides, or the PCs at the ticket desk.`,
  requirements: [
    { id: "R1", text: "An Ansible inventory grouped by gallery", match: ["inventory"] },
    { id: "R2", text: "Each kiosk's start URL as a host variable", match: ["start URL"] },
    { id: "R3", text: "The browser in kiosk mode on boot", match: ["kiosk mode"] },
    { id: "R4", text: "Screen blanking off", match: ["blanking"] },
    { id: "R5", text: "Display rotated on the portrait screens", match: ["portrait"] },
    { id: "R6", text: "Mouse cursor hidden", match: ["cursor"] },
    { id: "R7", text: "SSH keys only, password login off", match: ["password"] },
    { id: "R8", text: "A firewall allowing SSH only from the office network", match: ["firewall"] },
    { id: "R9", text: "Unattended security updates", match: ["unattended"] },
    { id: "R10", text: "A nightly reboot at 04:00", match: ["reboot"] },
    { id: "R11", text: "A watchdog that restarts the browser", match: ["watchdog"] },
    { id: "R12", text: "A VPN tunnel from each kiosk to the office", match: ["VPN"] },
    { id: "R13", text: "Roll changes out to one gallery first, then the rest in batches", match: ["batch"] },
    {
      id: "R14",
      text: "A health check playbook reporting unreachable kiosks and error pages",
      match: ["health check"],
    },
    { id: "R15", text: "A README a volunteer can follow", match: ["README"] },
  ],
  technologies: ["ansible", "raspberry-pi"],
  non_goals: [
    { text: "replacing the content system", match: ["content system"] },
    { text: "the PCs at the ticket desk", match: ["ticket desk"] },
  ],
  not_work: [
    { text: "the hand-written setup document", match: ["Word document"] },
    { text: "the dead SD card anecdote", match: ["Egyptian"] },
  ],
  independent: [
    ["R10", "R11"],
    ["R9", "R13"],
  ],
  inspired_by:
    "https://github.com/geerlingguy/temperature-monitor/issues/23 and https://github.com/jareware/chilipie-kiosk/issues/19 (provisioning Raspberry Pi fleets and kiosks with Ansible)",
};
