import type { EvalCase } from "../case";

export const opsInfraK8sMonitoring: EvalCase = {
  id: "ops-infra-k8s-monitoring",
  kind: "monitoring and alerting (Kubernetes, Prometheus)",
  work_kind: "infrastructure",
  description: `Monitoring and alerting for the production Kubernetes cluster

Right now we find out about outages from customers. Last month a node ran out of disk at 2 a.m. and the API was down for 3 hours before anyone noticed. We want proper monitoring and on-call alerts.

Cluster: Kubernetes 1.29 (k3s), 5 nodes, 14 services in 4 namespaces, everything deployed by GitOps from the \`infra\` repo.

Tasks:
1. Deploy kube-prometheus-stack with Helm through the GitOps repo (Prometheus, Alertmanager, Grafana, node-exporter, kube-state-metrics)
2. Persistent storage for Prometheus with 30 days of retention
3. Grafana behind the existing ingress with TLS, and login through our Google Workspace SSO
4. ServiceMonitors for our own services (they already expose /metrics)
5. Alert rules: node disk over 85%, node not ready, pod crash-looping, PVC almost full, TLS certificate expiring within 14 days, and a per-service 5xx rate above 2% for 5 minutes
6. Alertmanager routing: critical alerts page the on-call person through PagerDuty, warnings go to #ops-alerts in Slack; plus a dead man's switch so we notice when alerting itself breaks
7. A runbook link on every alert

Out of scope for now: logs (a separate project) and tracing.`,
  requirements: [
    { id: "R1", text: "Deploy kube-prometheus-stack with Helm", match: ["kube-prometheus-stack"] },
    { id: "R2", text: "Persistent storage for Prometheus with 30 days of retention", match: ["retention"] },
    { id: "R3", text: "Grafana behind the existing ingress with TLS", match: ["ingress"] },
    { id: "R4", text: "Grafana login through Google Workspace SSO", match: ["SSO"] },
    { id: "R5", text: "ServiceMonitors for our own services", match: ["ServiceMonitor"] },
    {
      id: "R6",
      text: "Alert rules for node disk, node not ready, crash-looping pods and full PVCs",
      match: ["disk"],
    },
    { id: "R7", text: "An alert for TLS certificates expiring within 14 days", match: ["expir"] },
    { id: "R8", text: "An alert on a per-service 5xx rate above 2%", match: ["5xx"] },
    { id: "R9", text: "Critical alerts page the on-call person through PagerDuty", match: ["PagerDuty"] },
    { id: "R10", text: "Warnings go to Slack", match: ["Slack"] },
    { id: "R11", text: "A dead man's switch for the alerting itself", match: ["dead man"] },
    { id: "R12", text: "A runbook link on every alert", match: ["runbook"] },
  ],
  technologies: ["kubernetes", "helm", "google-workspace", "grafana", "prometheus", "pagerduty"],
  non_goals: [
    { text: "logs", match: ["logs"] },
    { text: "tracing", match: ["tracing"] },
  ],
  not_work: [
    { text: "the incident that motivates the work", match: ["2 a.m."] },
    { text: "the incident that motivates the work", match: ["3 hours"] },
  ],
  sequence: [
    ["R1", "R5"],
    ["R1", "R9"],
  ],
  separate: [
    ["R3", "R4"],
    ["R7", "R8"],
  ],
  independent: [
    ["R2", "R3"],
    ["R4", "R5"],
    ["R7", "R8"],
  ],
  inspired_by:
    "https://github.com/mischavandenburg/kubecraft/issues/47 (deploy kube-prometheus-stack: storage, ingress with TLS, SSO, alert rules, Slack) and https://github.com/hiero-ledger/hiero-mirror-node/issues/658 (Kubernetes alerts to Slack and PagerDuty)",
};
