import type { EvalCase } from "../../case";

export const hoBugPhotoOrientation: EvalCase = {
  id: "ho-bug-photo-orientation",
  kind: "bug report with steps, expected behaviour and a worker log (image uploads)",
  work_kind: "bug",
  description: `Photos uploaded from iPhones show up sideways on listings

**What happens**
Since we moved image processing to the background worker (release 2.31), portrait photos taken on iPhones appear rotated 90° to the left on listing cards and in the gallery. The original file looks fine when you download it and open it on a laptop. Screenshots, and photos from most other phones, are fine.

**To reproduce**
1. On an iPhone, create a listing and add a portrait photo straight from the camera.
2. Wait a few seconds for the thumbnail to be generated.
3. Open the listing: the card thumbnail and the gallery image are both sideways.

**Expected**
Photos appear the way they looked on the phone, in every size: the 400px card, the 1600px gallery image and the original when someone opens it full screen.

**Worker log**
\`\`\`
[2025-03-02T09:14:07Z] INFO  image.resize listing=88213 file=IMG_4471.HEIC w=4032 h=3024 orientation=6
[2025-03-02T09:14:08Z] INFO  image.resize wrote card_400.jpg gallery_1600.jpg (exif stripped)
\`\`\`
The log reads orientation=6, but the resized files are written without applying it and then the EXIF is stripped, so nothing tells the browser to rotate them.

**Also**
- About 14,000 photos have gone through the worker since 2.31 shipped. We need a one-off backfill for those, not only a fix for new uploads.
- HEIC uploads have the same problem; keep converting them to JPEG, since some browsers can't show HEIC.
- A test with a sample orientation=6 photo would stop this coming back.
- A rotate button for sellers would be nice, but that's a separate ticket.`,
  repository_summary: `listings-api: a Node.js API with Express; uploads go to S3 and a BullMQ worker makes the resized copies.`,
  requirements: [
    { id: "R1", text: "Apply the EXIF orientation when resizing", match: ["orientation"] },
    { id: "R2", text: "The original also opens upright", match: ["original"] },
    { id: "R3", text: "A one-off backfill of the ~14,000 photos processed since 2.31", match: ["backfill"] },
    { id: "R4", text: "HEIC uploads fixed too and still converted to JPEG", match: ["HEIC"] },
    { id: "R5", text: "A test with a sample orientation=6 photo", match: ["test"] },
  ],
  technologies: ["nodejs", "express", "s3", "bullmq"],
  non_goals: [{ text: "a rotate button for sellers", match: ["rotate button"] }],
  not_work: [
    { text: "the reproduction steps", match: ["few seconds"] },
    { text: "what still works (screenshots)", match: ["screenshot"] },
    { text: "the worker log lines", match: ["88213"] },
  ],
  independent: [["R3", "R4"]],
  inspired_by:
    "https://github.com/openopps/openopps-platform/issues/2353 and https://github.com/humhub/humhub/issues/1897 (iPhone uploads shown sideways: EXIF orientation)",
};
