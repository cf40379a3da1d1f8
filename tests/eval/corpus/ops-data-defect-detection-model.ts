import type { EvalCase } from "../case";

export const opsDataDefectDetectionModel: EvalCase = {
  id: "ops-data-defect-detection-model",
  kind: "ML model: train, validate, deploy (image classification)",
  work_kind: "data",
  description: `Surface defect detection for the anodizing line

Context: QA inspectors on line 3 look at ~12,000 anodized aluminium panels per shift for scratches, pits and discoloration. We have 48,000 labeled photos from the line camera (5 classes including "ok"), stored in S3 with the labels in a CSV.

Steps, in order:
1. Prepare the data: remove near-duplicate frames, then split into train/validation/test by production date (not randomly) so the same batch never ends up in two splits
2. Train a classifier starting from a pretrained EfficientNet-B0 in PyTorch, with augmentation for lighting changes; track every run in MLflow
3. Validate on the held-out test set: recall on "scratch" and "pit" must be at least 97% at a false-reject rate of at most 3%; produce a confusion matrix and a sheet of the worst misclassifications for the QA lead to review
4. Deploy: export the model to ONNX and run it on the line's edge PC next to the camera, under 80 ms per panel
5. Run it in shadow mode next to the inspectors for two weeks, then let it auto-reject panels

Monitoring after go-live: log every prediction with its confidence, and flag drift when the weekly share of any class moves by more than 2 points.`,
  requirements: [
    { id: "R1", text: "Remove near-duplicate frames", match: ["near-duplicate"] },
    { id: "R2", text: "Split train/validation/test by production date", match: ["production date"] },
    { id: "R3", text: "Train a classifier from a pretrained EfficientNet-B0", match: ["classifier"] },
    { id: "R4", text: "Augmentation for lighting changes", match: ["augmentation"] },
    { id: "R5", text: "Track every run in MLflow", match: ["MLflow"] },
    {
      id: "R6",
      text: "Validate on the held-out test set: recall of at least 97% at a false-reject rate of at most 3%",
      match: ["recall"],
    },
    { id: "R7", text: "A confusion matrix", match: ["confusion matrix"] },
    {
      id: "R8",
      text: "A sheet of the worst misclassifications for the QA lead",
      match: ["misclassification"],
    },
    { id: "R9", text: "Export the model to ONNX", match: ["ONNX"] },
    { id: "R10", text: "Run it on the line's edge PC under 80 ms per panel", match: ["edge"] },
    { id: "R11", text: "Two weeks in shadow mode next to the inspectors", match: ["shadow"] },
    { id: "R12", text: "Then let it auto-reject panels", match: ["auto-reject"] },
    { id: "R13", text: "Log every prediction with its confidence", match: ["confidence"] },
    { id: "R14", text: "Flag drift in the weekly class shares", match: ["drift"] },
  ],
  technologies: ["s3", "pytorch", "onnx", "mlflow"],
  non_goals: [],
  not_work: [{ text: "the context about today's manual inspection", match: ["per shift"] }],
  not_non_goals: [{ text: "Monitoring after go-live", match: ["monitoring"] }],
  sequence: [["R2", "R3", "R6", "R9", "R10", "R11", "R12"]],
  separate: [
    ["R7", "R8"],
    ["R13", "R14"],
  ],
  independent: [
    ["R4", "R5"],
    ["R7", "R8"],
  ],
  inspired_by:
    "https://course.productize.ml/productize-it/train-evaluate-deploy (train, evaluate and deploy workflow) and the Manning chapter 'Model training and validation' of Build a Machine Learning Platform from Scratch (training, validation and deployment components of a vision pipeline)",
};
