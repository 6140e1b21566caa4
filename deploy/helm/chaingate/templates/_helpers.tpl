{{/*
What each service is, which the values cannot change: whether it is the public edge, the env var the
gateway finds it by, which internal services it calls besides the gateway's (`calls`: it is given
their URLs, and only they accept its pods), whether it has a database or uses NATS, whether it calls
nodes or subscribers' webhooks, whether it may scale out, and the Secret keys it reads besides
DATABASE_URL/NATS_URL (each as the variable of the same name).
*/}}
{{- define "chaingate.catalog" -}}
gateway: { public: true, database: true, stateless: true, internalToken: true, secretKeys: [CONSOLE_OPERATOR_TOKEN] }
btc-proxy: { upstreamEnv: BTC_PROXY_URL, nodes: true, stateless: true, internalToken: true, secretKeys: [BTC_RPC_URL, BTC_RPC_USER, BTC_RPC_PASSWORD] }
eth-proxy: { upstreamEnv: ETH_PROXY_URL, nodes: true, stateless: true, internalToken: true, secretKeys: [ETH_RPC_URL] }
trx-proxy: { upstreamEnv: TRX_PROXY_URL, nodes: true, stateless: true, internalToken: true, secretKeys: [TRON_NODE_URL, TRON_NODE_API_KEY] }
xpub: { upstreamEnv: XPUB_URL, database: true, nats: true, stateless: true, internalToken: true }
delivery: { upstreamEnv: DELIVERY_URL, calls: [xpub], database: true, nats: true, webhooks: true, stateless: true, internalToken: true }
scanner: { database: true, nats: true, nodes: true, leader: true, internalToken: true, secretKeys: [BTC_RPC_URL, BTC_RPC_USER, BTC_RPC_PASSWORD, BTC_ZMQ_URL, ETH_RPC_URL, ETH_WS_URL, TRON_NODE_URL, TRON_NODE_API_KEY] }
{{- end }}

{{- define "chaingate.fullname" -}}
{{- if contains .Chart.Name .Release.Name }}
{{- .Release.Name | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* (list $ "gateway") → "<release>-chaingate-gateway" */}}
{{- define "chaingate.componentName" -}}
{{- printf "%s-%s" (include "chaingate.fullname" (index . 0)) (index . 1) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "chaingate.instanceLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "chaingate.selectorLabels" -}}
{{ include "chaingate.instanceLabels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "chaingate.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version }}
{{ include "chaingate.selectorLabels" . }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: chaingate
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end }}

{{/*
A service's values: serviceDefaults overridden by services.<name>, key by key, one level deep
(autoscaling.enabled alone can be set); `resources` is replaced whole. Written out by hand because
sprig's merge treats false as unset.
*/}}
{{- define "chaingate.serviceValues" -}}
{{- $root := index . 0 }}
{{- $svc := deepCopy $root.Values.serviceDefaults }}
{{- range $key, $value := (index $root.Values.services (index . 1) | default dict) }}
{{- if and (kindIs "map" $value) (kindIs "map" (index $svc $key)) (ne $key "resources") }}
{{- $nested := deepCopy (index $svc $key) }}
{{- range $k, $v := $value }}{{ $_ := set $nested $k $v }}{{ end }}
{{- $_ := set $svc $key $nested }}
{{- else }}
{{- $_ := set $svc $key $value }}
{{- end }}
{{- end }}
{{- toYaml $svc }}
{{- end }}

{{- define "chaingate.secretName" -}}
{{- .Values.secret.existingSecret | default (include "chaingate.fullname" .) }}
{{- end }}

{{- define "chaingate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "chaingate.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{- define "chaingate.image" -}}
{{- $root := index . 0 }}{{- $name := index . 1 }}{{- $svc := index . 2 }}
{{- $image := $svc.image | default dict }}
{{- printf "%s/%s:%s" ($image.repository | default $root.Values.image.repository) $name (($image.tag | default $root.Values.image.tag) | default $root.Chart.AppVersion) }}
{{- end }}

{{/*
(list $ $role) → the enabled internal services the role calls, name → { env, port }: every one for the
public edge, those in its `calls` for the others.
*/}}
{{- define "chaingate.upstreams" -}}
{{- $root := index . 0 }}{{- $role := index . 1 }}
{{- $upstreams := dict }}
{{- range $other, $otherRole := include "chaingate.catalog" $root | fromYaml }}
{{- if and $otherRole.upstreamEnv (or $role.public (has $other ($role.calls | default list))) }}
{{- $otherSvc := include "chaingate.serviceValues" (list $root $other) | fromYaml }}
{{- if $otherSvc.enabled }}
{{- $_ := set $upstreams $other (dict "env" $otherRole.upstreamEnv "port" $otherSvc.port) }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml $upstreams }}
{{- end }}

{{/* The ConfigMap's data: listen address, log level, the upstreams it calls, then services.<name>.config. */}}
{{- define "chaingate.configData" -}}
{{- $root := index . 0 }}{{- $name := index . 1 }}{{- $role := index . 2 }}{{- $svc := index . 3 }}
{{- $data := dict "HOST" "0.0.0.0" "PORT" (toString $svc.port) "LOG_LEVEL" $svc.logLevel "OTEL_SERVICE_NAME" $name }}
{{- if $svc.metricsPort }}
{{- $_ := set $data "METRICS_HOST" "0.0.0.0" }}
{{- $_ := set $data "METRICS_PORT" (toString $svc.metricsPort) }}
{{- end }}
{{- if $role.nats }}
{{- $_ := set $data "NATS_STREAM_REPLICAS" (toString $root.Values.nats.streamReplicas) }}
{{- end }}
{{- range $other, $upstream := include "chaingate.upstreams" (list $root $role) | fromYaml }}
{{- $_ := set $data $upstream.env (printf "http://%s:%v" (include "chaingate.componentName" (list $root $other)) $upstream.port) }}
{{- end }}
{{- range $key, $value := $svc.config }}
{{- if has $key (include "chaingate.secretKeys" $root | fromYamlArray) }}
{{- fail (printf "services.%s.config.%s: %s is a secret: set it in the Secret (secret.* values or secret.existingSecret), never in the plain ConfigMap" $name $key $key) }}
{{- end }}
{{- $_ := set $data $key (toString $value) }}
{{- end }}
{{- toYaml $data }}
{{- end }}

{{/* Every key the Secret may hold: refused in a service's plain `config`. */}}
{{- define "chaingate.secretKeys" -}}
{{- toYaml (list "DATABASE_URL" "NATS_URL" "INTERNAL_TOKEN" "CONSOLE_OPERATOR_TOKEN" "BTC_RPC_URL" "BTC_RPC_USER" "BTC_RPC_PASSWORD" "BTC_RPC_COOKIE_FILE" "BTC_ZMQ_URL" "ETH_RPC_URL" "ETH_WS_URL" "TRON_NODE_URL" "TRON_NODE_API_KEY") }}
{{- end }}
