{{/* Chart name, shortened to 63 characters (a label value's limit). */}}
{{- define "delayq.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Object name prefix: <release>-<chart>, or the release name when it already contains the chart name. */}}
{{- define "delayq.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "delayq.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every object of the chart. */}}
{{- define "delayq.labels" -}}
helm.sh/chart: {{ include "delayq.chart" . }}
{{ include "delayq.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: delayq
{{- end }}

{{/* Selects the operator pod; immutable once the Deployment exists. */}}
{{- define "delayq.selectorLabels" -}}
app.kubernetes.io/name: {{ include "delayq.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end }}

{{- define "delayq.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "delayq.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The leader-election Lease: one per release, so two releases in one namespace do not share it. */}}
{{- define "delayq.leaseName" -}}
{{- printf "%s-leader" (include "delayq.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "delayq.operatorImage" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "delayq.workerImage" -}}
{{- printf "%s:%s" .Values.workerImage.repository (default .Chart.AppVersion .Values.workerImage.tag) }}
{{- end }}

{{/*
Labels the operator puts on worker pods and their metrics Services (operator/.../WorkerLabels.java):
the worker monitors select on these.
*/}}
{{- define "delayq.workerSelector" -}}
app.kubernetes.io/name: delayq-worker
app.kubernetes.io/managed-by: delayq-operator
{{- end }}

{{/* The labels operator/.../WorkerLabels puts on the pods of an outbox relay's own Deployment. */}}
{{- define "delayq.outboxRelaySelector" -}}
app.kubernetes.io/name: delayq-outbox-relay
app.kubernetes.io/managed-by: delayq-operator
{{- end }}

{{/* Where the worker monitors look: the watched namespaces, or all of them. */}}
{{- define "delayq.workerNamespaceSelector" -}}
{{- if .Values.watchNamespaces }}
matchNames:
{{- range .Values.watchNamespaces }}
  - {{ . | quote }}
{{- end }}
{{- else }}
any: true
{{- end }}
{{- end }}

{{/*
Relabelings of worker targets: the DelayQueue's name and the pod's shard range become labels, so
worker series line up with the operator's {namespace, delayqueue} and dashboards group by range.
*/}}
{{- define "delayq.workerRelabelings" -}}
- sourceLabels: [__meta_kubernetes_pod_label_app_kubernetes_io_instance]
  targetLabel: delayqueue
- sourceLabels: [__meta_kubernetes_pod_label_delayq_io_shard_range]
  targetLabel: shard_range
{{- end }}

{{/* Rules on namespaced objects, the same in the ClusterRole and in each per-namespace Role. */}}
{{- define "delayq.namespacedRules" -}}
# The DelayQueue resources: watched, their finalizer written on the object, status written on /status.
- apiGroups: ["delayq.io"]
  resources: ["delayqueues"]
  verbs: ["get", "list", "watch", "update", "patch"]
- apiGroups: ["delayq.io"]
  resources: ["delayqueues/status"]
  verbs: ["get", "update", "patch"]
# Owner references with blockOwnerDeletion need update on the owner's finalizers subresource.
- apiGroups: ["delayq.io"]
  resources: ["delayqueues/finalizers"]
  verbs: ["update"]
# What a DelayQueue owns: worker Deployments, their metrics Service and PodDisruptionBudget.
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: [""]
  resources: ["services"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
- apiGroups: ["policy"]
  resources: ["poddisruptionbudgets"]
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
# Secrets the DelayQueues reference (Redis credentials, webhook signing keys): checked, and read for
# the operator's own Redis probe; never written.
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "list", "watch"]
# Worker pods, read only: a container in CrashLoopBackOff shows on its DelayQueue's Degraded condition with its last message.
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["list"]
# core/v1 Events on DelayQueues (missing Secret, Redis unreachable, unsafe eviction policy).
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
{{- end }}

{{/* The console's objects: <fullname>-console, selected by component=console. */}}
{{- define "delayq.consoleName" -}}
{{- printf "%s-console" (include "delayq.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "delayq.consoleSelectorLabels" -}}
app.kubernetes.io/name: {{ include "delayq.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: console
{{- end }}

{{- define "delayq.consoleLabels" -}}
helm.sh/chart: {{ include "delayq.chart" . }}
{{ include "delayq.consoleSelectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: delayq
{{- end }}

{{- define "delayq.consoleImage" -}}
{{- $repo := default .Values.workerImage.repository .Values.console.image.repository }}
{{- $tag := default (default .Chart.AppVersion .Values.workerImage.tag) .Values.console.image.tag }}
{{- printf "%s:%s" $repo $tag }}
{{- end }}
