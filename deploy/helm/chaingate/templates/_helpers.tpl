{{/*
What each service is, which the values cannot change: whether it is the public edge, the env var the
gateway finds it by, which internal services it calls besides the gateway's (`calls`: it is given
their URLs, and only they accept its pods), whether it has a database or uses NATS, whether it calls
nodes or subscribers' webhooks, whether it may scale out, the Secret variables it reads besides
DATABASE_URL/NATS_URL/INTERNAL_TOKEN (optional ones), and what its shutdown waits for after the
HTTP drain (`shutdownWaits`: setting → default in ms; see "chaingate.drainSeconds").
*/}}
{{- define "chaingate.catalog" -}}
gateway: { public: true, database: true, stateless: true, internalToken: true, secretKeys: [CONSOLE_OPERATOR_TOKEN, EVM_CHAINS] }
btc-proxy: { upstreamEnv: BTC_PROXY_URL, nodes: true, stateless: true, internalToken: true, secretKeys: [BTC_RPC_URL, BTC_RPC_USER, BTC_RPC_PASSWORD] }
eth-proxy: { upstreamEnv: ETH_PROXY_URL, nodes: true, stateless: true, internalToken: true, secretKeys: [ETH_RPC_URL, EVM_CHAINS] }
trx-proxy: { upstreamEnv: TRX_PROXY_URL, nodes: true, stateless: true, internalToken: true, secretKeys: [TRON_NODE_URL, TRON_NODE_API_KEY] }
xpub: { upstreamEnv: XPUB_URL, database: true, nats: true, stateless: true, internalToken: true, secretKeys: [EVM_CHAINS] }
delivery: { upstreamEnv: DELIVERY_URL, calls: [xpub], database: true, nats: true, webhooks: true, stateless: true, internalToken: true, shutdownWaits: { DELIVERY_TIMEOUT_MS: 15000 }, secretKeys: [EVM_CHAINS] }
scanner: { database: true, nats: true, nodes: true, leader: true, internalToken: true, shutdownWaits: { NODE_TIMEOUT_MS: 30000 }, secretKeys: [BTC_RPC_URL, BTC_RPC_USER, BTC_RPC_PASSWORD, BTC_ZMQ_URL, ETH_RPC_URL, ETH_WS_URL, TRON_NODE_URL, TRON_NODE_API_KEY, EVM_CHAINS] }
{{- end }}

{{/* The services' defaults every service shares: DRAIN_TIMEOUT_MS (@chaingate/config), the telemetry flush on exit (@chaingate/service-kit). */}}
{{- define "chaingate.defaultDrainTimeoutMs" }}10000{{ end }}
{{- define "chaingate.flushSeconds" }}5{{ end }}

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

{{/* Labels of the release-wide objects (Secret, ServiceAccount, monitors, rules, Ingress). */}}
{{- define "chaingate.releaseLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{ include "chaingate.instanceLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: chaingate
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
A service's values: serviceDefaults overridden by services.<name>, key by key, one level deep
(autoscaling.enabled alone can be set); lists are replaced whole. Written out by hand because
sprig's merge treats false as unset.
*/}}
{{- define "chaingate.serviceValues" -}}
{{- $root := index . 0 }}
{{- $svc := deepCopy $root.Values.serviceDefaults }}
{{- range $key, $value := (index $root.Values.services (index . 1) | default dict) }}
{{- if and (kindIs "map" $value) (kindIs "map" (index $svc $key)) }}
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

{{/* Every variable the Secret may hold: refused in a service's plain `config` and as a literal extraEnv value. */}}
{{- define "chaingate.secretKeys" -}}
{{- toYaml (list "DATABASE_URL" "NATS_URL" "INTERNAL_TOKEN" "CONSOLE_OPERATOR_TOKEN" "BTC_RPC_URL" "BTC_RPC_USER" "BTC_RPC_PASSWORD" "BTC_ZMQ_URL" "ETH_RPC_URL" "ETH_WS_URL" "TRON_NODE_URL" "TRON_NODE_API_KEY" "EVM_CHAINS") }}
{{- end }}

{{/* (list $ "DATABASE_URL") → { name, key }: where the variable is read from (secret.keys, else the key of its name in the release's Secret). */}}
{{- define "chaingate.secretRef" -}}
{{- $root := index . 0 }}{{- $variable := index . 1 }}
{{- $override := get ($root.Values.secret.keys | default dict) $variable | default dict }}
{{- toYaml (dict "name" ($override.name | default (include "chaingate.secretName" $root)) "key" ($override.key | default $variable)) }}
{{- end }}

{{/* Whether the chart makes the Secret. */}}
{{- define "chaingate.createSecret" -}}
{{- if not .Values.secret.existingSecret }}true{{ end }}
{{- end }}

{{/*
The chart-made Secret's data (key → value, empty values left out), computed once per render and
kept on the values so that the Secret and every pod's checksum see the same INTERNAL_TOKEN. The
token: secret.internalAuthToken; else the value the chart's Secret already holds (lookup: install
and upgrade); else, with cluster access and no such Secret yet (a first install), a generated one;
else (helm template, GitOps renderers, a client-side dry run) the render fails, because a token
generated there would change at every render and, applied, split the services.
*/}}
{{- define "chaingate.secretData" -}}
{{- if not (hasKey .Values.secret "__rendered") }}
{{- $name := include "chaingate.fullname" . }}
{{- $tokenRef := include "chaingate.secretRef" (list . "INTERNAL_TOKEN") | fromYaml }}
{{- $token := .Values.secret.internalAuthToken }}
{{- if and (not $token) (eq $tokenRef.name $name) }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace $name }}
{{- $token = (and $existing $existing.data (index $existing.data $tokenRef.key)) | default "" | b64dec }}
{{- if not $token }}
{{- if lookup "v1" "Secret" .Release.Namespace "" }}
{{- $token = randAlphaNum 48 }}
{{- else }}
{{- fail "secret.internalAuthToken: rendered without cluster access (helm template, a GitOps tool, --dry-run without =server) and no token given: a generated INTERNAL_TOKEN would change at every render. Set secret.internalAuthToken (at least 32 characters, from your secret store) or secret.existingSecret; `helm install`/`upgrade` generate it once and keep it." }}
{{- end }}
{{- end }}
{{- end }}
{{- $values := dict "DATABASE_URL" .Values.postgres.url "NATS_URL" .Values.nats.url "INTERNAL_TOKEN" $token "BTC_RPC_URL" .Values.nodes.btc.rpcUrl "BTC_RPC_USER" .Values.nodes.btc.rpcUser "BTC_RPC_PASSWORD" .Values.nodes.btc.rpcPassword "BTC_ZMQ_URL" .Values.nodes.btc.zmqUrl "ETH_RPC_URL" .Values.nodes.eth.rpcUrl "ETH_WS_URL" .Values.nodes.eth.wsUrl "TRON_NODE_URL" .Values.nodes.trx.url "TRON_NODE_API_KEY" .Values.nodes.trx.apiKey "CONSOLE_OPERATOR_TOKEN" .Values.secret.consoleOperatorToken "EVM_CHAINS" (ternary (toJson .Values.nodes.evmChains) "" (gt (len .Values.nodes.evmChains) 0)) }}
{{- $data := dict }}
{{- range $key, $value := .Values.secret.extra }}{{ if $value }}{{ $_ := set $data $key $value }}{{ end }}{{ end }}
{{- range $variable, $value := $values }}
{{- $ref := include "chaingate.secretRef" (list $ $variable) | fromYaml }}
{{- if and $value (eq $ref.name $name) }}{{ $_ := set $data $ref.key $value }}{{ end }}
{{- end }}
{{- $_ := set .Values.secret "__rendered" $data }}
{{- end }}
{{- toYaml (index .Values.secret "__rendered") }}
{{- end }}

{{/* The data of a Secret a pod reads (key → value): the chart-made one, else the cluster's (lookup; empty without cluster access). */}}
{{- define "chaingate.secretDataOf" -}}
{{- $root := index . 0 }}{{- $name := index . 1 }}
{{- if and (include "chaingate.createSecret" $root) (eq $name (include "chaingate.fullname" $root)) }}
{{- include "chaingate.secretData" $root }}
{{- else }}
{{- $found := lookup "v1" "Secret" $root.Release.Namespace $name }}
{{- $data := dict }}
{{- range $key, $value := (and $found $found.data) | default dict }}{{ $_ := set $data $key ($value | b64dec) }}{{ end }}
{{- range $key, $value := (and $found $found.stringData) | default dict }}{{ $_ := set $data $key $value }}{{ end }}
{{- toYaml $data }}
{{- end }}
{{- end }}

{{- define "chaingate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "chaingate.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* <repository>/<service>@<digest> when a digest is given (content-addressed: the tag is left out), else <repository>/<service>:<tag>. */}}
{{- define "chaingate.image" -}}
{{- $root := index . 0 }}{{- $name := index . 1 }}{{- $svc := index . 2 }}
{{- $image := $svc.image | default dict }}
{{- $repository := printf "%s/%s" ($image.repository | default $root.Values.image.repository) $name }}
{{- if $image.digest }}
{{- printf "%s@%s" $repository $image.digest }}
{{- else }}
{{- printf "%s:%s" $repository (($image.tag | default $root.Values.image.tag) | default $root.Chart.AppVersion) }}
{{- end }}
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

{{/* The env entries the chart sets from the Secret(s) for a role: [{ name, valueFrom }]. */}}
{{- define "chaingate.secretEnv" -}}
{{- $root := index . 0 }}{{- $role := index . 1 }}
{{- $env := list }}
{{- $required := list }}
{{- if $role.database }}{{ $required = append $required "DATABASE_URL" }}{{ end }}
{{- if $role.nats }}{{ $required = append $required "NATS_URL" }}{{ end }}
{{- /* Not optional: a Secret without it stops the pod rather than switching the internal routes' check off. */}}
{{- if $role.internalToken }}{{ $required = append $required "INTERNAL_TOKEN" }}{{ end }}
{{- range $required }}
{{- $env = append $env (dict "name" . "valueFrom" (dict "secretKeyRef" (include "chaingate.secretRef" (list $root .) | fromYaml))) }}
{{- end }}
{{- range $role.secretKeys }}
{{- $ref := include "chaingate.secretRef" (list $root .) | fromYaml }}
{{- $_ := set $ref "optional" true }}
{{- $env = append $env (dict "name" . "valueFrom" (dict "secretKeyRef" $ref)) }}
{{- end }}
{{- toYaml $env }}
{{- end }}

{{/*
A pod's whole env (list $ $name $role $svc $configData): the Secret variables, then extraEnv
(global, then the service's). An extra name the chart already sets is refused (it would shadow the
chart's entry), and so is a Secret variable given as a literal value.
*/}}
{{- define "chaingate.env" -}}
{{- $root := index . 0 }}{{- $name := index . 1 }}{{- $role := index . 2 }}{{- $svc := index . 3 }}{{- $configData := index . 4 }}
{{- $env := include "chaingate.secretEnv" (list $root $role) | fromYamlArray }}
{{- $taken := dict }}
{{- range $env }}{{ $_ := set $taken .name "the Secret (secret.keys to read it from elsewhere)" }}{{ end }}
{{- range $key, $_ := $configData }}{{ $_ := set $taken $key (printf "the ConfigMap (services.%s.config)" $name) }}{{ end }}
{{- $secretKeys := include "chaingate.secretKeys" $root | fromYamlArray }}
{{- range $entry := concat $root.Values.extraEnv ($svc.extraEnv | default list) }}
{{- if hasKey $taken $entry.name }}
{{- fail (printf "extraEnv %s (services.%s): the chart sets it from %s" $entry.name $name (index $taken $entry.name)) }}
{{- end }}
{{- if and (has $entry.name $secretKeys) (hasKey $entry "value") }}
{{- fail (printf "extraEnv %s (services.%s): %s is a secret: read it from a Secret (valueFrom, or secret.keys), never as a literal value" $entry.name $name $entry.name) }}
{{- end }}
{{- $_ := set $taken $entry.name "extraEnv" }}
{{- $env = append $env $entry }}
{{- end }}
{{- toYaml $env }}
{{- end }}

{{/*
checksum/secret of a pod (list $ $env $envFrom $volumes): every Secret value it reads through env
(name, key, value), and the whole data of every Secret it takes through envFrom or a volume; the
values come from the chart-made Secret or, for the others, from the cluster (lookup: helm install
and upgrade; a render without cluster access sees only their names).
*/}}
{{- define "chaingate.secretChecksum" -}}
{{- $root := index . 0 }}{{- $env := index . 1 }}{{- $envFrom := index . 2 }}{{- $volumes := index . 3 }}
{{- $read := list }}
{{- range $env }}
{{- with (and .valueFrom .valueFrom.secretKeyRef) }}
{{- $data := include "chaingate.secretDataOf" (list $root .name) | fromYaml }}
{{- $read = append $read (list .name .key (index $data .key | default "")) }}
{{- end }}
{{- end }}
{{- $whole := list }}
{{- range $envFrom }}{{ with .secretRef }}{{ $whole = append $whole .name }}{{ end }}{{ end }}
{{- range $volumes }}
{{- with .secret }}{{ $whole = append $whole .secretName }}{{ end }}
{{- with .projected }}{{ range .sources }}{{ with .secret }}{{ $whole = append $whole .name }}{{ end }}{{ end }}{{ end }}
{{- end }}
{{- range ($whole | uniq | sortAlpha) }}
{{- $read = append $read (list . (include "chaingate.secretDataOf" (list $root .) | fromYaml)) }}
{{- end }}
{{- toJson $read | sha256sum }}
{{- end }}

{{/*
A Kubernetes quantity in bytes (list "<what>" <quantity>): 512Mi, 1Gi, 1.5G, 268435456. Used to
check the gateway's memory limit against its body budget.
*/}}
{{- define "chaingate.bytes" -}}
{{- $what := index . 0 }}{{- $quantity := toString (index . 1) }}
{{- $match := regexFindAll "^([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$" $quantity 1 }}
{{- if not $match }}{{ fail (printf "%s: cannot read %q as bytes" $what $quantity) }}{{ end }}
{{- $number := regexReplaceAll "[A-Za-z]+$" $quantity "" | float64 }}
{{- $unit := regexReplaceAll "^[0-9.]+" $quantity "" }}
{{- $scale := get (dict "" 1.0 "k" 1000.0 "M" 1000000.0 "G" 1000000000.0 "T" 1000000000000.0 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0) $unit }}
{{- mulf $number $scale | floor | int64 }}
{{- end }}

{{/*
The seconds a service's shutdown may take after SIGTERM (list $svc $role): the preStop wait,
DRAIN_TIMEOUT_MS for in-flight requests, what its release then waits for (the catalog's
`shutdownWaits`, each read from its config or its default), and the telemetry flush.
*/}}
{{- define "chaingate.drainSeconds" -}}
{{- $svc := index . 0 }}{{- $role := index . 1 }}
{{- $ms := int64 (index $svc.config "DRAIN_TIMEOUT_MS" | default (include "chaingate.defaultDrainTimeoutMs" .)) }}
{{- range $setting, $default := $role.shutdownWaits | default dict }}
{{- $ms = add $ms (int64 (index $svc.config $setting | default $default)) }}
{{- end }}
{{- add $svc.preStop.sleepSeconds (div (add $ms 999) 1000) (include "chaingate.flushSeconds" .) }}
{{- end }}

{{/* The checks a service's values must pass before anything is rendered for it (list $ $name $role $svc). */}}
{{- define "chaingate.checkService" -}}
{{- $root := index . 0 }}{{- $name := index . 1 }}{{- $role := index . 2 }}{{- $svc := index . 3 }}
{{- $drain := include "chaingate.drainSeconds" (list $svc $role) | int64 }}
{{- if lt (int64 $svc.terminationGracePeriodSeconds) $drain }}
{{- fail (printf "services.%s.terminationGracePeriodSeconds (%v) is shorter than its shutdown: preStop %v s + DRAIN_TIMEOUT_MS + what it finishes after the drain%s + %s s span flush = %v s; Kubernetes would kill it mid-drain. Raise it (leave a margin) or shorten the drain." $name $svc.terminationGracePeriodSeconds $svc.preStop.sleepSeconds (ternary (printf " (%s)" (keys ($role.shutdownWaits | default dict) | sortAlpha | join ", ")) "" (not (empty $role.shutdownWaits))) (include "chaingate.flushSeconds" $root) $drain) }}
{{- end }}
{{- if and $svc.preStop.sleepSeconds (eq $svc.preStop.handler "sleep") (not (semverCompare ">=1.30.0-0" $root.Capabilities.KubeVersion.Version)) }}
{{- fail (printf "services.%s.preStop.handler sleep needs Kubernetes 1.30 or later (this is %s): use handler exec" $name $root.Capabilities.KubeVersion.Version) }}
{{- end }}
{{- if eq (int $svc.port) (int $svc.metricsPort) }}
{{- fail (printf "services.%s: port and metricsPort are both %v" $name $svc.port) }}
{{- end }}
{{- if and $role.public $svc.resources $svc.resources.limits $svc.resources.limits.memory }}
{{- $budget := int64 (index $svc.config "MAX_BUFFERED_BODY_BYTES" | default 268435456) }}
{{- $needed := add (mul 2 $budget) 268435456 }}
{{- $limit := include "chaingate.bytes" (list (printf "services.%s.resources.limits.memory" $name) $svc.resources.limits.memory) | int64 }}
{{- if lt $limit $needed }}
{{- fail (printf "services.%s.resources.limits.memory (%v) is below what MAX_BUFFERED_BODY_BYTES (%v bytes) needs: bodies are held whole and copied once while forwarded (2 × the budget) plus 256 MiB for the process = %v MiB. Raise the limit or lower MAX_BUFFERED_BODY_BYTES in services.%s.config." $name $svc.resources.limits.memory $budget (div $needed 1048576) $name) }}
{{- end }}
{{- end }}
{{- range (concat $root.Values.extraVolumes ($svc.extraVolumes | default list)) }}
{{- if eq .name "tmp" }}{{ fail (printf "extraVolumes (services.%s): the name tmp is the chart's /tmp" $name) }}{{ end }}
{{- end }}
{{- range (concat $root.Values.extraVolumeMounts ($svc.extraVolumeMounts | default list)) }}
{{- if or (eq .name "tmp") (eq .mountPath "/tmp") }}{{ fail (printf "extraVolumeMounts (services.%s): tmp and /tmp are the chart's" $name) }}{{ end }}
{{- end }}
{{- end }}

{{/*
A service's topologySpreadConstraints (list $ $name $svc): a constraint without a labelSelector gets
the service's own pod labels, without which it would count no pod at all.
*/}}
{{- define "chaingate.topologySpread" -}}
{{- $root := index . 0 }}{{- $name := index . 1 }}{{- $svc := index . 2 }}
{{- $constraints := list }}
{{- range $svc.topologySpreadConstraints }}
{{- $constraint := deepCopy . }}
{{- if not $constraint.labelSelector }}
{{- $_ := set $constraint "labelSelector" (dict "matchLabels" (include "chaingate.selectorLabels" (list $root $name) | fromYaml)) }}
{{- end }}
{{- $constraints = append $constraints $constraint }}
{{- end }}
{{- toYaml $constraints }}
{{- end }}

{{/* PromQL label matchers that scope the alert rules to this release. */}}
{{- define "chaingate.ruleSelector" -}}
{{- .Values.metrics.prometheusRule.selector | default (printf "namespace=%q" .Release.Namespace) }}
{{- end }}
