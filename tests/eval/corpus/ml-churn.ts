import type { EvalCase } from "../case";

export const mlChurn: EvalCase = {
  id: "ml-churn",
  kind: "ML / data",
  application_type: "data-science",
  tech_stack_id: "scikit-learn-mlflow",
  description: `Churn prediction for our subscription box business. We have 3 years of orders, support tickets and app events in Postgres (~2M customers). Build a model that predicts which customers will cancel in the next 30 days, retrained weekly, and writes a churn score per customer back to a table the CRM team reads. Need a baseline (logistic regression) before anything fancy, a proper time-based train/test split (no leakage), and a report of the top features driving churn. Track experiments in MLflow. Python, scikit-learn, maybe XGBoost.`,
  requirements: [
    { id: "R1", text: "Predict which customers cancel in the next 30 days", match: ["30 days"] },
    { id: "R2", text: "Retrained weekly", match: ["retrain"] },
    { id: "R3", text: "A churn score per customer written back to a table", match: ["churn score"] },
    { id: "R4", text: "A logistic regression baseline", match: ["logistic regression"] },
    { id: "R5", text: "A time-based train/test split", match: ["split"] },
    { id: "R6", text: "No leakage", match: ["leakage"] },
    { id: "R7", text: "A report of the top features driving churn", match: ["feature"] },
    { id: "R8", text: "Experiments tracked in MLflow", match: ["MLflow"] },
    { id: "R9", text: "Uses orders, support tickets and app events", match: ["support ticket"] },
  ],
  technologies: ["postgresql", "mlflow", "python", "scikit-learn", "xgboost"],
  non_goals: [],
};
