#!/usr/bin/env bash
# The kpsim command-line contract: exit codes, stdout vs stderr, JSON that parses, determinism,
# stdin and directory input. Run by ctest as `cli_test.sh <path-to-kpsim> <source-dir>`.
# Prints "N passed, M failed" and exits non-zero if anything failed.
set -u

KPSIM=${1:?usage: cli_test.sh <path-to-kpsim> <source-dir>}
SRC=${2:?usage: cli_test.sh <path-to-kpsim> <source-dir>}
EX="$SRC/examples"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kpsim-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ -s "$WORK/err" ] && sed 's/^/     stderr: /' "$WORK/err" | head -5; return 0; }

# run ARGS...: runs kpsim with stdout in $WORK/out, stderr in $WORK/err, exit code in $rc.
run() {
  "$KPSIM" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
  rc=$?
}

# expect_rc NAME CODE ARGS...
expect_rc() {
  local name=$1 want=$2
  shift 2
  run "$@"
  if [ "$rc" -eq "$want" ]; then ok "$name (exit $want)"; else fail "$name: exit $rc, want $want"; fi
}

is_json() { python3 -c 'import json,sys; json.load(sys.stdin)' <"$1" 2>/dev/null; }

# json_check FILE PYTHON-EXPR: the expression over `d` (the parsed JSON) must be true.
json_check() {
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1" 2>/dev/null
}

# --- exit 0: a completed run, text and json --------------------------------------------------
expect_rc "simulate text" 0 simulate "$EX/cascade.yaml"
if [ -s "$WORK/out" ]; then ok "simulate text writes the timeline to stdout"; else fail "simulate text: empty stdout"; fi
if grep -q "^  cascade depth 2, quiet 30.000s after the first preemption" "$WORK/out"; then
  ok "simulate text: the disruption summary of the cascade"
else
  fail "simulate text: no disruption summary for the cascade"
fi

# The disruption figures of the bundled examples (worked out by hand from their headers).
run simulate -o json "$EX/cascade.yaml"
if json_check "$WORK/out" 'd["disruption"]["evictedPods"] == 2 and d["disruption"]["cascadeDepth"] == 2 and d["disruption"]["timeToQuiet"] == 30.0 and d["disruption"]["evictionRatio"] == 1.0 and d["disruption"]["pdbsBroken"] == [] and d["disruption"]["pendingAtEnd"]["count"] == 0'; then
  ok "disruption: cascade.yaml evicts web and batch, two levels deep, quiet after 30 s"
else
  fail "disruption: cascade.yaml's figures are off"
fi
# Preempt or scale up (examples/scale-up.yaml, worked out in its header).
run simulate -o json --scale-up "$EX/scale-up.yaml"
if json_check "$WORK/out" 'd["scaleUp"]["nodesAdded"] == 3 and d["scaleUp"]["byTemplate"] == [{"template": "pool-small", "nodes": 3}] and d["scaleUp"]["additions"][0]["readyAt"] == 120.0 and [o["waste"] for o in d["scaleUp"]["additions"][0]["options"]] == [1.188, 1.391] and d["scaleUp"]["comparison"]["preempt"]["evictedPods"] == 4 and d["scaleUp"]["comparison"]["preempt"]["pdbsBroken"] == 1 and d["scaleUp"]["comparison"]["preempt"]["pending"] == 1 and d["scaleUp"]["comparison"]["scaleUp"]["evictedPods"] == 0 and d["scaleUp"]["comparison"]["scaleUp"]["pending"] == 0 and d["scaleUp"]["comparison"]["scaleUp"]["lastPlacement"] == 120.0 and d["disruption"]["evictedPods"] == 0 and d["scaleUp"]["stop"] is None'; then
  ok "scale-up: three pool-small nodes at 120 s instead of four evictions and a broken PDB"
else
  fail "scale-up: scale-up.yaml's figures are off"
fi
run simulate -o json --scale-up --expander most-pods --scale-up-delay 45s "$EX/scale-up.yaml"
if json_check "$WORK/out" 'd["scaleUp"]["expander"] == "most-pods" and d["scaleUp"]["delay"] == 45.0 and d["scaleUp"]["comparison"]["scaleUp"]["lastPlacement"] == 45.0'; then
  ok "scale-up: --expander and --scale-up-delay reach the run"
else
  fail "scale-up: --expander/--scale-up-delay not applied"
fi
run simulate -o json "$EX/scale-up.yaml"
if grep -q "NodeTemplate" "$WORK/err" && json_check "$WORK/out" '[n["node"] for n in d["nodes"]] == ["n1", "n2"] and "scaleUp" not in d'; then
  ok "scale-up: without --scale-up the templates are no nodes, and a warning says so"
else
  fail "scale-up: templates leaked into a plain run, or no NodeTemplate warning"
fi
run simulate --scale-up --node-template "$EX/scale-up.yaml" "$EX/cascade.yaml"
if [ "$rc" -eq 0 ] && grep -q "^Preempt or scale up:" "$WORK/out" && grep -q "NotANodeTemplate" "$WORK/err"; then
  ok "scale-up: --node-template reads Nodes from a file and says what else it ignored"
else
  fail "scale-up: --node-template run"
fi
# A template is out of the input before admission: a DaemonSet makes no pod for it.
cat > "$WORK/ds-template.yaml" <<'EOF'
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "1", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: pool, annotations: {kpsim.io/node-template: "true"}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: a, image: agent, resources: {requests: {cpu: 100m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: [{name: c, image: app, resources: {requests: {cpu: "3"}}}]}
EOF
run simulate -o json --scale-up "$WORK/ds-template.yaml"
if json_check "$WORK/out" 'len([p for p in d["pods"] if p["pod"].startswith("default/agent-")]) == 1 and d["scaleUp"]["noTemplate"] == [] and d["scaleUp"]["nodesAdded"] == 1'; then
  ok "scale-up: a DaemonSet makes no pod for a node template"
else
  fail "scale-up: a DaemonSet pod was made for the template"
fi
# A template name given twice (annotated in the input, then in a file) is one node group whose
# template is the last one given, and said: the file's 1-CPU pool takes no 3-CPU pod.
cat > "$WORK/small-pool.yaml" <<'EOF'
apiVersion: v1
kind: Node
metadata: {name: pool}
status: {allocatable: {cpu: "1", memory: 8Gi, pods: "110"}}
EOF
run simulate -o json --scale-up --node-template "$WORK/small-pool.yaml" "$WORK/ds-template.yaml"
if json_check "$WORK/out" 'd["scaleUp"]["templates"] == ["pool"] and d["scaleUp"]["nodesAdded"] == 0 and len(d["scaleUp"]["noTemplate"]) == 1' &&
   grep -q "warning: .*small-pool.yaml:.*Node pool: given 2 times as a node template (.*ds-template.yaml:[0-9]*, .*small-pool.yaml:[0-9]*): one node group, whose template is the last one \[DuplicateNodeTemplate\]" "$WORK/err"; then
  ok "scale-up: a template name given twice is one group, the last template, with a warning"
else
  fail "scale-up: a template name given twice: $(head -c 600 "$WORK/err")"
fi
# template_node FILE NAME CPU [SPEC]: a file of one Node (a template), SPEC its spec in flow style.
template_node() {
  { printf 'apiVersion: v1\nkind: Node\nmetadata: {name: %s}\n' "$2"
    [ -n "${4:-}" ] && printf 'spec: %s\n' "$4"
    printf 'status: {allocatable: {cpu: "%s", memory: 32Gi, pods: "110"}}\n' "$3"; } >"$1"
}
# A Node of a dump annotated as a template leaves the cluster, and its pods keep its name: their
# reason and warning say that the node is a template (not that it is missing from the input),
# with --scale-up or without, in either profile; a pod bound to a name nowhere in the input still
# says "not in the input" (the book profile: "not in the cluster").
cat "$WORK/ds-template.yaml" - > "$WORK/bound-template.yaml" <<'EOF'
---
apiVersion: v1
kind: Pod
metadata: {name: on-pool}
spec: {nodeName: pool, containers: [{name: c, image: app, resources: {requests: {cpu: "1"}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: on-ghost}
spec: {nodeName: ghost, containers: [{name: c, image: app, resources: {requests: {cpu: "1"}}}]}
EOF
for flags in "" "--scale-up" "--profile book"; do
  run simulate -o json $flags "$WORK/bound-template.yaml"
  if json_check "$WORK/out" 'any(w["code"]=="BoundToMissingNode" and w["object"]=="Pod default/on-pool" and w["message"].startswith("bound to node pool, which is a node template, not a node of the cluster: it holds no node") and "copy under another name" in w["message"] for w in d["warnings"]) and any(p["pod"]=="default/on-pool" and p["reason"]=="bound to node pool, which is a node template, not a node of the cluster" for p in d["pods"]) and any(w["object"]=="Pod default/on-ghost" and "which is not in the input" in w["message"] for w in d["warnings"]) and any(p["pod"]=="default/on-ghost" and "which is not in the" in p["reason"] and "template" not in p["reason"] for p in d["pods"])'; then
    ok "a pod bound to a node template's name says the node is a template (${flags:-no flags})"
  else
    fail "a pod bound to a node template's name (${flags:-no flags}): $(head -c 600 "$WORK/out")"
  fi
done
# A --node-template file's Node is no node of the input: a pod bound to its name (a template
# captured from a node the dump lacks) is bound to a node "not in the input", as it always was.
template_node "$WORK/ghost-pool.yaml" ghost 8
run simulate -o json --scale-up --node-template "$WORK/ghost-pool.yaml" "$WORK/bound-template.yaml"
if json_check "$WORK/out" 'any(p["pod"]=="default/on-ghost" and p["reason"]=="bound to node ghost, which is not in the input" for p in d["pods"]) and any(w["object"]=="Pod default/on-ghost" and w["code"]=="BoundToMissingNode" and "template" not in w["message"] for w in d["warnings"]) and "ghost" in d["scaleUp"]["templates"]'; then
  ok "a pod bound to a --node-template file's node name is bound to a node not in the input"
else
  fail "a pod bound to a --node-template file's node name: $(head -c 600 "$WORK/out")"
fi
# --node-template takes one file per flag: the files after it are the input.
run simulate -o json --scale-up --node-template "$EX/scale-up.yaml" "$EX/cascade.yaml" "$EX/never-preempt.yaml"
if json_check "$WORK/out" 'd["scaleUp"]["templates"] == ["n1", "n2", "pool-small", "pool-large"] and "node-a" in [n["node"] for n in d["nodes"]]'; then
  ok "scale-up: --node-template takes one file, the rest is input"
else
  fail "scale-up: --node-template swallowed the input files"
fi
# A template file holding a whole manifest set says so once, with what it held.
if [ "$(grep -c "NotANodeTemplate" "$WORK/err")" -eq 1 ] &&
   grep -q "scale-up.yaml:[0-9]*: --node-template files hold Nodes; 10 other objects ignored (7 Pod, 1 PodDisruptionBudget, 2 PriorityClass; the first is PriorityClass batch) \[NotANodeTemplate\]" "$WORK/err"; then
  ok "scale-up: a template file of many other objects is one NotANodeTemplate warning"
else
  fail "scale-up: NotANodeTemplate per object: $(grep -c NotANodeTemplate "$WORK/err") lines"
fi
# The first of a template file's other objects is the first in the file, a workload included.
cat >"$WORK/mixed-template.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: first, namespace: default}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: second, namespace: default}
spec: {containers: [{name: c, image: x}]}
YAML
run simulate --scale-up --node-template "$WORK/mixed-template.yaml" "$EX/scale-up.yaml"
if grep -q "mixed-template.yaml:1: --node-template files hold Nodes; 2 other objects ignored (1 Deployment, 1 Pod; the first is Deployment default/first) \[NotANodeTemplate\]" "$WORK/err"; then
  ok "scale-up: NotANodeTemplate names the file's first other object"
else
  fail "scale-up: NotANodeTemplate's first: $(grep NotANodeTemplate "$WORK/err")"
fi
# A template captured from a cordoned node is used as given, and said, with its file.
template_node "$WORK/cordoned-pool.yaml" cordoned-pool 8 '{unschedulable: true}'
run simulate --scale-up --node-template "$WORK/cordoned-pool.yaml" "$EX/cascade.yaml"
if grep -q "cordoned-pool.yaml:1 (document 1): Node cordoned-pool: spec.unschedulable: true: the nodes made from this template are cordoned, so no pod is placed on them .*\[CordonedNodeTemplate\]" "$WORK/err"; then
  ok "scale-up: a cordoned template is said, with its file"
else
  fail "scale-up: cordoned template: $(head -c 600 "$WORK/err")"
fi
# A template Node admission rejects is no template: given again, valid, in another file, it is
# one template, not a duplicate.
template_node "$WORK/bad-pool.yaml" pool-b -8
template_node "$WORK/good-pool.yaml" pool-b 8
run simulate -o json --scale-up --node-template "$WORK/bad-pool.yaml" --node-template "$WORK/good-pool.yaml" "$EX/cascade.yaml"
if grep -q "Node pool-b: status.allocatable.cpu: Invalid value" "$WORK/err" && ! grep -q "DuplicateNodeTemplate" "$WORK/err" &&
   json_check "$WORK/out" 'd["scaleUp"]["templates"] == ["pool-b"]'; then
  ok "scale-up: a rejected template Node is not counted as a duplicate of the valid one"
else
  fail "scale-up: rejected template counted: $(head -c 600 "$WORK/err")"
fi
run simulate -o html --scale-up "$EX/scale-up.yaml"
if grep -q 'id="scaleup"' "$WORK/out"; then ok "scale-up: the HTML report has the Preempt or scale up panel"; else fail "scale-up: no HTML panel"; fi
expect_rc "scale-up without templates" 2 simulate --scale-up "$EX/cascade.yaml"
expect_rc "scale-up with the book profile" 2 simulate --scale-up --profile book "$EX/scale-up.yaml"
expect_rc "scale-up with a bad delay" 2 simulate --scale-up --scale-up-delay soon "$EX/scale-up.yaml"
expect_rc "scale-up with an unknown expander" 2 simulate --scale-up --expander price "$EX/scale-up.yaml"
expect_rc "scale-up with a missing template file" 2 simulate --scale-up --node-template "$WORK/none.yaml" "$EX/scale-up.yaml"
# A template file without a Node: the usage error names the file, and the warning says what it held.
cat >"$WORK/pod-template.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: not-a-node}
spec: {containers: [{name: c, image: x}]}
YAML
expect_rc "scale-up with a template file of no Node" 2 simulate --scale-up --node-template "$WORK/pod-template.yaml" "$EX/cascade.yaml"
if grep -q "NotANodeTemplate" "$WORK/err" && grep -q "no node templates (none in $WORK/pod-template.yaml)" "$WORK/err"; then
  ok "scale-up: a template file of no Node is named, with what it held"
else
  fail "scale-up: a template file of no Node is not explained"
fi
# --compare turning --scale-up on uses --node-template: the base run must not call it ignored.
run simulate --node-template "$EX/scale-up.yaml" --compare 'scaleUp=true' "$EX/scale-up.yaml"
if [ "$rc" -eq 0 ] && ! grep -q "IgnoredFlag" "$WORK/err"; then
  ok "scale-up: --node-template is not ignored when --compare turns --scale-up on"
else
  fail "scale-up: --compare scaleUp=true: exit $rc or --node-template called ignored"
fi
# Likewise a book run's --candidate-sampling beside profile=default; beside seed=2 it is ignored.
run simulate --profile book --candidate-sampling kubernetes --compare 'profile=default' "$EX/cascade.yaml"
if [ "$rc" -eq 0 ] && ! grep -q "candidate-sampling is ignored" "$WORK/err"; then ok "compare: a flag a compared run reads is not called ignored"; else fail "compare profile=default: exit $rc or --candidate-sampling called ignored"; fi
run simulate --profile book --candidate-sampling kubernetes --compare 'seed=2' "$EX/cascade.yaml"
if [ "$rc" -eq 0 ] && grep -q "candidate-sampling is ignored" "$WORK/err"; then ok "compare: a flag no run reads is called ignored"; else fail "compare seed=2: exit $rc or --candidate-sampling not called ignored"; fi
expect_rc "scale-up with --max-new-nodes 0" 2 simulate --scale-up --max-new-nodes 0 "$EX/scale-up.yaml"
if grep -q "must be a whole number, at least 1, got \"0\"" "$WORK/err"; then ok "a count flag of 0 says it must be at least 1"; else fail "--max-new-nodes 0: unclear message"; fi
# CLI11 would read "+0" and " 0" as 0 and "0x1" as 1: a count is plain decimal ("01" is 1, not octal).
for bad in +0 " 0" 0x1 1.5 -1; do
  expect_rc "explain --attempt '$bad'" 2 explain --pod default/api --attempt "$bad" "$EX/cascade.yaml"
  if grep -q "must be a whole number, at least 1" "$WORK/err"; then ok "explain --attempt '$bad': says what a count is"; else fail "explain --attempt '$bad': unclear message"; fi
done
expect_rc "explain --attempt 01 (decimal)" 0 explain --pod default/api --attempt 01 "$EX/cascade.yaml"
expect_rc "--max-attempts past an int" 2 simulate --profile book --max-attempts 3000000000 "$EX/book/cascade.yaml"
if grep -q "must be a whole number from 1 to 2147483647, got \"3000000000\"" "$WORK/err"; then ok "--max-attempts 3000000000 names the range"; else fail "--max-attempts 3000000000: unclear message"; fi
# A setting of --compare takes a count as its flag does, with the same message.
expect_rc "--compare maxNewNodes=0" 2 simulate --compare 'scaleUp=true maxNewNodes=0' "$EX/scale-up.yaml"
if grep -q "maxNewNodes: must be a whole number, at least 1, got \"0\"" "$WORK/err"; then ok "--compare maxNewNodes=0 says what a count is"; else fail "--compare maxNewNodes=0: unclear message"; fi
# The scale-up comparison: pods bound from the start "never waited" in the scale-up world.
run simulate --scale-up "$EX/scale-up.yaml"
if grep -q "default/batch-n1-1  evicted at 0.000s  n1 (never waited)" "$WORK/out" &&
   grep -q "default/api-1       n1 at 30.000s      pool-small-3 at 120.000s" "$WORK/out"; then
  ok "scale-up: the comparison shows pods running from the start as never waited, others with their time"
else
  fail "scale-up: the comparison rows differ from the README's"
fi
run simulate -o json --profile book "$EX/book/cascade.yaml"
if json_check "$WORK/out" '[b["pdb"] for b in d["disruption"]["pdbsBroken"]] == ["default/log"] and d["disruption"]["cascadeDepth"] == 2 and d["disruption"]["evictedPods"] == 2 and d["disruption"]["pendingAtEnd"]["longest"][0]["pod"] == "default/log"'; then
  ok "disruption: the chapter's cascade breaks log's PDB through batch, two levels deep"
else
  fail "disruption: book/cascade.yaml's figures are off"
fi
run simulate -o json --feature-gates GenericWorkload=true "$EX/podgroups/disruption-all.yaml"
if json_check "$WORK/out" 'd["disruption"]["groupsBroken"][0]["group"] == "default/batch" and d["disruption"]["groupsBroken"][0]["state"] == "PreemptedWhole" and d["disruption"]["evictedPods"] == 6'; then
  ok "disruption: a disruptionMode All group torn down whole is a broken group"
else
  fail "disruption: podgroups/disruption-all.yaml's broken group is missing"
fi
run simulate -o json --feature-gates GenericWorkload=true,GangScheduling=true "$EX/podgroups/gang-preempts-two-gangs.yaml"
if json_check "$WORK/out" 'd["disruption"]["preemptors"] == 1 and d["disruption"]["byPreemptor"][0]["preemptor"] == "default/train" and d["disruption"]["byPreemptor"][0]["kind"] == "PodGroup" and d["disruption"]["evictionRatio"] == 1.0'; then
  ok "disruption: a gang's preemption is one preemptor with its pods' requests"
else
  fail "disruption: gang-preempts-two-gangs.yaml's preemptor is off"
fi
if grep -q "Preempted" "$WORK/out"; then ok "simulate text shows the Preempted event"; else fail "simulate text: no Preempted line"; fi

expect_rc "simulate json" 0 simulate -o json "$EX/cascade.yaml"
cp "$WORK/out" "$WORK/cascade.json"
if is_json "$WORK/out"; then ok "simulate json parses"; else fail "simulate json does not parse"; fi
if json_check "$WORK/out" 'all(k in d for k in ("events","pods","nodes","rejected","ignored"))'; then
  ok "simulate json has events, pods, nodes, rejected, ignored"
else
  fail "simulate json lacks a top-level key"
fi
if json_check "$WORK/out" 'any(e["reason"]=="Preempted" and e["by"]=="default/api" and "pdbViolation" in e for e in d["events"])'; then
  ok "simulate json Preempted events carry by and pdbViolation"
else
  fail "simulate json Preempted event shape"
fi

expect_rc "pending pods are a result, not an error" 0 simulate "$EX/never-preempt.yaml"
expect_rc "simulate with rejected input still completes" 0 simulate -o json "$EX/bad-input.yaml"
if is_json "$WORK/out"; then ok "diagnostics stay off stdout (json parses with rejected input)"; else fail "simulate json with rejected input does not parse"; fi
expect_rc "simulate kubectl List" 0 simulate -o json "$EX/kubectl-list.json"
if json_check "$WORK/out" 'any(i["kind"]=="ConfigMap" for i in d["ignored"])'; then ok "ConfigMap listed as ignored"; else fail "ConfigMap not in ignored"; fi

# --- validate: exit 0 clean, 1 rejected -------------------------------------------------------
expect_rc "validate clean input" 0 validate "$EX/cascade.yaml"
expect_rc "validate rejected input" 1 validate "$EX/bad-input.yaml"
expect_rc "validate rejected input, json" 1 validate -o json "$EX/bad-input.yaml"
if is_json "$WORK/out"; then ok "validate json parses"; else fail "validate json does not parse"; fi
if json_check "$WORK/out" 'any(o["name"]=="default/orphan" and o["admitted"] is False for o in d["objects"]) and any(o["name"]=="default/ok" and o["admitted"] and o["priority"]==1000 and o["operation"]=="CREATE" for o in d["objects"])'; then
  ok "validate json reports admitted and rejected objects"
else
  fail "validate json objects"
fi

# --- explain ------------------------------------------------------------------------------------
expect_rc "explain json" 0 explain --pod default/api -o json "$EX/pdb-protected.yaml"
if json_check "$WORK/out" 'd["eligible"] is True and d["chosen"]["node"]=="node-b" and len(d["candidates"])==2'; then
  ok "explain json: eligible, two candidates, node-b chosen"
else
  fail "explain json content"
fi
expect_rc "explain never pod" 0 explain --pod default/analytics -o json "$EX/never-preempt.yaml"
if json_check "$WORK/out" 'd["eligible"] is False and d["eligibilityMessage"]=="not eligible due to preemptionPolicy=Never." and d["chosen"] is None'; then
  ok "explain json: preemptionPolicy=Never not eligible"
else
  fail "explain json eligibility"
fi

# --- exit 2: usage errors; nothing on stdout ----------------------------------------------------
usage() {
  local name=$1
  shift
  expect_rc "$name" 2 "$@"
  if [ -s "$WORK/out" ]; then fail "$name: usage error wrote to stdout"; else ok "$name: stdout empty"; fi
  if [ -s "$WORK/err" ]; then ok "$name: message on stderr"; else fail "$name: no message on stderr"; fi
}
usage "unknown flag" simulate --no-such-flag "$EX/cascade.yaml"
usage "unknown command" frobnicate "$EX/cascade.yaml"
usage "no command" 
usage "missing path" simulate "$WORK/does-not-exist.yaml"
usage "no input file" simulate
usage "bad --seed" simulate --seed not-a-number "$EX/cascade.yaml"
usage "bad --until" simulate --until 5minutes "$EX/cascade.yaml"
usage "bad --profile" simulate --profile fancy "$EX/cascade.yaml"
usage "bad -o" simulate -o yaml "$EX/cascade.yaml"
usage "unknown feature gate" simulate --feature-gates NoSuchGate=true "$EX/cascade.yaml"
usage "bad --candidate-sampling" simulate --candidate-sampling some "$EX/cascade.yaml"
usage "explain unknown pod" explain --pod default/nobody "$EX/cascade.yaml"
usage "explain without --pod" explain "$EX/cascade.yaml"

# --- evict: the kubelet's ranking, no simulation ---------------------------------------------------
expect_rc "evict text" 0 evict --node node-a "$EX/node-pressure.yaml"
if grep -q "^  1. default/report-job-x7k2p" "$WORK/out"; then ok "evict ranks the low-priority pod above its request first"; else fail "evict text ranking"; fi
expect_rc "evict json" 0 evict --node node-a -o json "$EX/node-pressure.yaml"
if json_check "$WORK/out" '[r["pod"] for r in d["ranking"]] == ["default/report-job-x7k2p","default/web-5f9c7-q2w4e","kube-system/kube-proxy-a","default/cache"] and all(k in d["ranking"][0] for k in ("pod","priority","usage","request","exceedsRequest","critical","reason")) and d["ranking"][2]["critical"] and d["ranking"][2]["evictionOrder"] is None'; then
  ok "evict json: ranking in eviction order with pod, priority, usage, request, exceedsRequest, critical, reason"
else
  fail "evict json ranking shape"
fi
expect_rc "evict --usage overrides metrics" 0 evict --node node-a -o json --usage default/cache=7Gi "$EX/node-pressure.yaml"
if json_check "$WORK/out" 'd["ranking"][0]["pod"] == "default/cache" and d["ranking"][0]["usage"] == "7Gi"'; then ok "evict --usage moves cache first"; else fail "evict --usage"; fi
usage "evict without --node" evict "$EX/node-pressure.yaml"
usage "evict unknown node" evict --node nowhere "$EX/node-pressure.yaml"
usage "evict unknown signal" evict --node node-a --signal memory "$EX/node-pressure.yaml"
usage "evict bad --usage" evict --node node-a --usage cache "$EX/node-pressure.yaml"
usage "evict -o html" evict --node node-a -o html "$EX/node-pressure.yaml"

# --- Scenario steps: simulate runs them on the clock ------------------------------------------------
expect_rc "simulate a Scenario" 0 simulate -o json "$EX/node-pressure.yaml"
if json_check "$WORK/out" 'any(e["reason"]=="ScenarioStep" and e["step"]["action"]=="pressure" and e["time"]==60 for e in d["events"]) and [e["pod"] for e in d["events"] if e["reason"]=="Evicted"] == ["default/report-job-x7k2p","default/web-5f9c7-q2w4e"] and d["stats"]["evictions"] == 2'; then
  ok "simulate json: the pressure step and two Evicted events, 10s apart"
else
  fail "simulate json Scenario events"
fi

# --- the documented caveats, said by explain -----------------------------------------------------
FIX="$(dirname "$0")/fixtures"
expect_rc "explain: affinity to a lower-priority pod" 0 explain --pod web -o json "$FIX/affinity-to-lower-priority.yaml"
if json_check "$WORK/out" '"met here only by lower-priority pods preemption would remove: default/cache (priority 0)" in d["candidates"][0]["steps"][0]["why"] and any(w["code"]=="AffinityToLowerPriority" for w in d["warnings"])'; then
  ok "explain names the lower-priority pod the affinity needs, with a warning"
else
  fail "explain: affinity-to-lower-priority caveat"
fi
# --- explain of an in-place resize attempt (the scheduler's resize preemption) -------------------
expect_rc "explain: resize attempt" 0 explain --pod db-0 -o json --feature-gates InPlacePodVerticalScalingSchedulerPreemption=true "$FIX/resize-two-nodes.yaml"
if json_check "$WORK/out" 'd["round"] == 1 and d["time"] == 30 and [f["code"] for f in d["filter"]] == ["Unschedulable", "UnschedulableAndUnresolvable"] and d["filter"][1]["reasons"] == ["pod assigned to different node"] and len(d["candidates"]) == 1 and [s["pod"] for s in d["candidates"][0]["steps"]] == ["default/batch-a", "default/batch-b"] and d["candidates"][0]["steps"][0]["reprieved"] and not d["candidates"][0]["steps"][1]["reprieved"] and d["chosen"]["victims"] == ["default/batch-b"]'; then
  ok "explain shows a resize attempt's candidate and reprieve steps on the pod's own node"
else
  fail "explain: resize attempt"
fi
expect_rc "explain: resize without the gate" 2 explain --pod db-0 "$EX/resize-preemption.yaml"
expect_rc "explain: cross-node anti-affinity" 0 explain --pod web "$FIX/cross-node-anti-affinity.yaml"
if grep -q "blocked by default/batch on node n2 (topology.kubernetes.io/zone a).*cross-node preemption is not done" "$WORK/out"; then
  ok "explain names the pod on another node that blocks preemption"
else
  fail "explain: cross-node caveat"
fi

expect_rc "Scenario edge cases end (no crash, no endless eviction)" 0 simulate -o json "$FIX/step-edge-cases.yaml"
if json_check "$WORK/out" 'any(w["code"]=="EvictionLoop" for w in d["warnings"]) and any(e["reason"]=="Deleted" and e["pod"]=="default/ghost" for e in d["events"]) and d["endReason"]=="quiescent"'; then
  ok "a node-less pod is deleted and an eviction loop is cut with EvictionLoop"
else
  fail "Scenario edge cases"
fi

# --- determinism ----------------------------------------------------------------------------------
run simulate -o json "$EX/cascade.yaml"; cp "$WORK/out" "$WORK/a.json"
run simulate -o json "$EX/cascade.yaml"; cp "$WORK/out" "$WORK/b.json"
if cmp -s "$WORK/a.json" "$WORK/b.json"; then ok "two runs are byte-identical (json)"; else fail "two json runs differ"; fi
run simulate "$EX/graceful-race.yaml"; cp "$WORK/out" "$WORK/a.txt"
run simulate "$EX/graceful-race.yaml"; cp "$WORK/out" "$WORK/b.txt"
if cmp -s "$WORK/a.txt" "$WORK/b.txt"; then ok "two runs are byte-identical (text)"; else fail "two text runs differ"; fi
run simulate --seed 7 -o json "$EX/kubectl-list.json"; cp "$WORK/out" "$WORK/s7a.json"; rc7=$rc
run simulate --seed 7 -o json "$EX/kubectl-list.json"; cp "$WORK/out" "$WORK/s7b.json"
if [ "$rc7" -eq 0 ] && cmp -s "$WORK/s7a.json" "$WORK/s7b.json"; then ok "--seed 7 twice is byte-identical"; else fail "--seed 7 runs differ"; fi
# A different seed may break score ties differently; it must still be a valid, completed run.
expect_rc "--seed 8 completes" 0 simulate --seed 8 -o json "$EX/kubectl-list.json"
if is_json "$WORK/out"; then ok "--seed 8 output parses"; else fail "--seed 8 output does not parse"; fi


# --- explain any attempt of the run (replacements, --attempt, --at) -------------------------
run simulate -o json "$EX/cascade.yaml"
REPL=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([p["pod"] for p in d["pods"] if p.get("replacementOf")][0])' "$WORK/out" 2>/dev/null)
SIMJSON="$WORK/cascade-sim.json"; cp "$WORK/out" "$SIMJSON"
expect_rc "explain a replacement created during the run" 0 explain --pod "$REPL" -o json "$EX/cascade.yaml"
if json_check "$WORK/out" 'd["round"] == 2 and d["chosen"]["node"] == "node-b" and d["chosen"]["victims"] == ["default/batch"]'; then
  ok "explain of the replacement: its own preemption in round 2"
else
  fail "explain of the replacement"
fi
# Every FailedScheduling event of the run is explained with the same message by --attempt.
for R in $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(str(e["round"]) for e in d["events"] if e["reason"]=="FailedScheduling"))' "$SIMJSON"); do
  POD=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([e["pod"] for e in d["events"] if e["reason"]=="FailedScheduling" and e["round"]==int(sys.argv[2])][0])' "$SIMJSON" "$R")
  MSG=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([e["message"] for e in d["events"] if e["reason"]=="FailedScheduling" and e["round"]==int(sys.argv[2])][0])' "$SIMJSON" "$R")
  run explain --pod "$POD" --attempt "$R" -o json "$EX/cascade.yaml"
  if [ "$rc" -eq 0 ] && json_check "$WORK/out" "d['message'] == $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$MSG")"; then
    ok "explain --attempt $R: the message simulate logged"
  else
    fail "explain --attempt $R"
  fi
done
expect_rc "explain --at a later time" 0 explain --pod "$REPL" --at 5s -o json "$EX/cascade.yaml"
if json_check "$WORK/out" 'd["round"] == 4 and d["eligible"] == False'; then ok "explain --at 5s: the retry in round 4"; else fail "explain --at"; fi
usage "explain --attempt of another pod's round" explain --pod default/api --attempt 2 "$EX/cascade.yaml"
if grep -q "round 2 is the attempt of pod $REPL" "$WORK/err"; then ok "explain --attempt names the round's owner"; else fail "explain --attempt owner"; fi
usage "explain --attempt and --at exclude each other" explain --pod default/api --attempt 1 --at 1s "$EX/cascade.yaml"
usage "explain --at refuses a bad duration" explain --pod default/api --at soon "$EX/cascade.yaml"
expect_rc "simulate html embeds explained attempts" 0 simulate -o html "$EX/cascade.yaml"
if grep -q 'id="attempt-1"' "$WORK/out" && grep -q 'id="attempt-4"' "$WORK/out" && ! grep -q 'id="attempt-3"' "$WORK/out"; then
  ok "simulate html: one block per attempt that did not bind"
else
  fail "simulate html attempts"
fi

# --- html output and pod-group explain ------------------------------------------------------
expect_rc "simulate html" 0 simulate -o html "$EX/cascade.yaml"
expect_rc "explain html" 0 explain -o html --pod default/api "$EX/cascade.yaml"
expect_rc "validate has no html" 2 validate -o html "$EX/cascade.yaml"
expect_rc "explain a pod group" 0 explain --feature-gates GenericWorkload=true,GangScheduling=true --group default/train "$EX/podgroups/gang-preempts-two-gangs.yaml"
expect_rc "explain --group needs GenericWorkload" 2 explain --group default/train "$EX/podgroups/gang-preempts-two-gangs.yaml"
expect_rc "explain needs --pod or --group" 2 explain "$EX/cascade.yaml"
expect_rc "explain --pod and --group exclude each other" 2 explain --pod default/api --group default/x "$EX/cascade.yaml"

# --- stdin and directory input ----------------------------------------------------------------
same_events() {
  python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(0 if (a["events"], a["pods"]) == (b["events"], b["pods"]) else 1)' "$1" "$2" 2>/dev/null
}
"$KPSIM" simulate -o json - <"$EX/cascade.yaml" >"$WORK/stdin.json" 2>"$WORK/err"
rc=$?
if [ "$rc" -eq 0 ]; then ok "stdin input (exit 0)"; else fail "stdin input: exit $rc"; fi
if same_events "$WORK/cascade.json" "$WORK/stdin.json"; then ok "stdin gives the same events and pods as the file"; else fail "stdin events differ from file"; fi

mkdir -p "$WORK/dir"
python3 - "$EX/cascade.yaml" "$WORK/dir" <<'PY'
import sys
docs = [d for d in open(sys.argv[1]).read().split("\n---\n") if "kind:" in d]
# Name order must restore document order: classes and nodes first, pods after.
for i, d in enumerate(docs):
    ext = ".yml" if i % 2 else ".yaml"
    open(f"{sys.argv[2]}/{i:02d}-doc{ext}", "w").write(d + "\n")
open(f"{sys.argv[2]}/README.txt", "w").write("not a manifest: must be skipped\n")
PY
expect_rc "directory input" 0 simulate -o json "$WORK/dir"
if same_events "$WORK/cascade.json" "$WORK/out"; then ok "directory (name order) gives the same events and pods"; else fail "directory events differ from file"; fi

# Several files in the order given: classes+nodes, then pods.
python3 - "$EX/cascade.yaml" "$WORK" <<'PY'
import sys
docs = [d for d in open(sys.argv[1]).read().split("\n---\n") if "kind:" in d]
infra = [d for d in docs if "kind: Pod\n" not in d]
pods = [d for d in docs if "kind: Pod\n" in d]
open(f"{sys.argv[2]}/infra.yaml", "w").write("\n---\n".join(infra) + "\n")
open(f"{sys.argv[2]}/pods.yaml", "w").write("\n---\n".join(pods) + "\n")
PY
expect_rc "several files" 0 simulate -o json "$WORK/infra.yaml" "$WORK/pods.yaml"
if same_events "$WORK/cascade.json" "$WORK/out"; then ok "several files give the same events and pods"; else fail "several files differ"; fi

# A broken file names itself on stderr and never crashes.
printf 'apiVersion: v1\nkind: Pod\nmetadata: [unclosed\n' >"$WORK/broken.yaml"
run validate "$WORK/broken.yaml"
if [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ]; then ok "syntax error exits 1 or 2 (got $rc), no crash"; else fail "syntax error: exit $rc"; fi
if grep -q "broken.yaml" "$WORK/err"; then ok "syntax error names the file on stderr"; else fail "syntax error message lacks the file name"; fi

# --- existing objects and warnings (issue 7) ---------------------------------------------------
# A snapshot whose pods carry spec.priority but whose PriorityClasses were not captured.
cat >"$WORK/snapshot-no-classes.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: low, namespace: default}
  spec:
    nodeName: n1
    priorityClassName: batch-low
    priority: 100
    preemptionPolicy: PreemptLowerPriority
    containers: [{name: c, resources: {requests: {cpu: "2"}}}]
- apiVersion: v1
  kind: Pod
  metadata: {name: high, namespace: default}
  spec:
    priorityClassName: prod-high
    priority: 1000
    preemptionPolicy: PreemptLowerPriority
    containers: [{name: c, resources: {requests: {cpu: "2"}}}]
YAML
expect_rc "snapshot without classes simulates" 0 simulate -o json "$WORK/snapshot-no-classes.yaml"
if json_check "$WORK/out" 'len(d["rejected"])==0 and any(e["reason"]=="Preempted" and e["pod"]=="default/low" and e["by"]=="default/high" for e in d["events"])'; then
  ok "existing pods keep spec.priority: high preempts low"
else
  fail "existing pods were rejected or did not preempt"
fi
if json_check "$WORK/out" 'sorted(w["object"] for w in d["warnings"] if w["code"]=="KeptAgainstAdmission")==["Pod default/high","Pod default/low"] and all(w["file"] and w["line"]>0 for w in d["warnings"])'; then
  ok "simulate json warns KeptAgainstAdmission per pod, with file and line"
else
  fail "simulate json lacks the KeptAgainstAdmission warnings"
fi
if grep -q '^warning: .*snapshot-no-classes.yaml:.*Pod default/low: kept as an existing object' "$WORK/err"; then
  ok "warning: lines on stderr"
else
  fail "no warning: line on stderr"
fi
expect_rc "validate still refuses the pods as creates" 1 validate -o json "$WORK/snapshot-no-classes.yaml"
if json_check "$WORK/out" 'any(w["code"]=="ExistingObjectInSimulate" for w in d["warnings"])'; then
  ok "validate says simulate takes them as existing objects"
else
  fail "validate does not mention the existing-object rule"
fi
expect_rc "explain of an existing pod" 0 explain --pod default/high -o json "$WORK/snapshot-no-classes.yaml"
if json_check "$WORK/out" 'd["priority"]==1000 and any(w["code"]=="KeptAgainstAdmission" for w in d["warnings"])'; then
  ok "explain json carries the input warnings"
else
  fail "explain json lacks warnings"
fi
expect_rc "book profile needs no PriorityClass" 0 simulate --profile book -o json "$WORK/snapshot-no-classes.yaml"
if json_check "$WORK/out" 'len(d["rejected"])==0'; then ok "book profile keeps the existing pods"; else fail "book profile rejected pods"; fi
run simulate --profile book --candidate-sampling kubernetes "$WORK/snapshot-no-classes.yaml"
if grep -q 'warning: --candidate-sampling is ignored' "$WORK/err"; then ok "a flag the profile ignores is warned"; else fail "no warning for an ignored flag"; fi

: >"$WORK/empty.yaml"
expect_rc "validate of an empty input exits 1" 1 validate "$WORK/empty.yaml"
if grep -q 'NoObjects' "$WORK/err"; then ok "empty input is warned"; else fail "empty input not warned"; fi
expect_rc "simulate of an empty input completes" 0 simulate -o json "$WORK/empty.yaml"
if json_check "$WORK/out" 'any(w["code"]=="NoObjects" for w in d["warnings"])'; then ok "simulate json warns NoObjects"; else fail "simulate json lacks NoObjects"; fi

cat >"$WORK/unmodeled.yaml" <<'YAML'
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "110"}}
---
kind: Pod
metadata: {name: a}
spec:
  nodeName: gone
  resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]
  containers: [{name: c, ports: [{containerPort: 80, hostPort: 80}]}]
---
kind: Pod
metadata: {name: b}
spec:
  resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]
  containers: [{name: c}]
YAML
expect_rc "pods using unmodelled fields still simulate" 0 simulate -o json "$WORK/unmodeled.yaml"
if json_check "$WORK/out" 'sum(1 for w in d["warnings"] if w["code"]=="NotModelled" and "the first of 2 pods that use spec.resourceClaims" in w["message"])==1'; then
  ok "unmodelled fields warned once per field with pods counted"
else
  fail "unmodelled field warning missing or repeated"
fi
if json_check "$WORK/out" 'any(w["code"]=="BoundToMissingNode" and w["object"]=="Pod default/a" for w in d["warnings"]) and any(p["pod"]=="default/a" and "not in the input" in p["reason"] for p in d["pods"])'; then
  ok "a pod bound to a missing node is warned and says so in its reason"
else
  fail "pod bound to a missing node not reported"
fi
# Pods and no nodes: the run ends at once, every pod pending with ErrNoNodesAvailable's text.
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: x}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {containers: [{name: c, image: x}]}\n' >"$WORK/pods-only.yaml"
# The memory bound is checked on the plain build: ASan reserves terabytes of address space, so
# under `make test-asan` (ASAN_OPTIONS set) only the time bound applies.
if [ -n "${ASAN_OPTIONS:-}" ]; then vmem=unlimited; else vmem=1000000; fi
(ulimit -v "$vmem"; exec timeout 20 "$KPSIM" simulate -o json "$WORK/pods-only.yaml" >"$WORK/out" 2>"$WORK/err" </dev/null)
rc=$?
if [ "$rc" -eq 0 ]; then ok "pods with no nodes: exit 0 within bounded memory and time"; else fail "pods with no nodes: exit $rc"; fi
if json_check "$WORK/out" "d['endTime'] == 0 and all(p['state'] == 'Pending' and p['reason'] == 'no nodes available to schedule pods' for p in d['pods']) and all(e['count'] == 1 for e in d['events'])"; then
  ok "pods with no nodes: all pending, one FailedScheduling each"; else fail "pods with no nodes: unexpected result"; fi
run simulate "$WORK/pods-only.yaml"
if grep -q "FailedScheduling default/a: no nodes available to schedule pods" "$WORK/out"; then ok "pods with no nodes: text timeline"; else fail "pods with no nodes: text timeline"; fi
# --- dump shapes: directory trees, typed lists, simulator export, KubeSchedulerConfiguration ---
DATA="$SRC/tests/io/data"
expect_rc "cluster-info dump tree" 0 simulate -o json "$DATA/cluster-info-dump"
if json_check "$WORK/out" 'any(p["pod"]=="default/web-2" and p["state"]=="Running" for p in d["pods"]) and any(p["pod"]=="kube-system/coredns-5d78c9869d-abcde" for p in d["pods"]) and len(d["nodes"])==2'; then
  ok "pods from subdirectories (default/pods.json, kube-system/pods.json) are read and scheduled"
else
  fail "dump tree: pods from subdirectories missing or not scheduled"
fi
if grep -q "^warning: .*web-1/logs.txt: not a manifest" "$WORK/err"; then ok "a pod's logs.txt is a warning on stderr"; else fail "no warning for logs.txt"; fi
expect_rc "cluster-info dump, --no-recursive" 0 simulate --no-recursive -o json "$DATA/cluster-info-dump"
if json_check "$WORK/out" 'len(d["pods"])==0 and len(d["nodes"])==2'; then ok "--no-recursive reads only the top-level files"; else fail "--no-recursive still read subdirectories"; fi
if grep -q "subdirectory not read (--no-recursive)" "$WORK/err"; then ok "--no-recursive names the skipped subdirectories"; else fail "--no-recursive: no warning"; fi
expect_rc "validate a dump tree" 0 validate "$DATA/cluster-info-dump"
expect_rc "validate --no-recursive" 0 validate --no-recursive "$DATA/cluster-info-dump"
expect_rc "explain in a dump tree" 0 explain --pod default/web-2 -o json "$DATA/cluster-info-dump"
if json_check "$WORK/out" 'd["fitsNode"] is not None'; then ok "explain finds the pod read from a subdirectory"; else fail "explain: pod from subdirectory"; fi
expect_rc "sonobuoy tree" 0 simulate -o json "$DATA/sonobuoy"
if json_check "$WORK/out" 'any(p["pod"]=="prod/api-0" and p["state"]=="Running" for p in d["pods"]) and any(e["reason"]=="Preempted" for e in d["events"])'; then
  ok "sonobuoy tree: kindless Pods.json/Nodes.json read, the high pod preempts"
else
  fail "sonobuoy tree"
fi

expect_rc "simulator export" 0 simulate -o json "$EX/simulator-export.json"
if json_check "$WORK/out" 'any(p["pod"]=="ml/train" and p["state"]=="Running" for p in d["pods"]) and len(d["nodes"])==3'; then ok "simulator export: nodes and pods read, the pending pod runs"; else fail "simulator export content"; fi
if grep -q "1 storageClasses, 1 pvs, 1 pvcs not modelled" "$WORK/err"; then ok "simulator export: volumes counted in a warning"; else fail "simulator export: no volume warning"; fi
# Its schedulerConfig (minCandidateNodesAbsolute 1) samples one candidate from a seeded offset:
# seed 1 takes sim-3 (web/frontend); the exact flag wins and dry-runs every node (batch/etl-0).
run simulate --seed 1 -o json "$EX/simulator-export.json"
if json_check "$WORK/out" 'any(e["reason"]=="Preempted" and e["pod"]=="web/frontend" for e in d["events"])'; then ok "config's DefaultPreemption args select one-candidate sampling"; else fail "config sampling not applied"; fi
run simulate --seed 1 --candidate-sampling exact -o json "$EX/simulator-export.json"
if json_check "$WORK/out" 'any(e["reason"]=="Preempted" and e["pod"]=="batch/etl-0" for e in d["events"])'; then ok "--candidate-sampling exact wins over the config"; else fail "flag did not win over config"; fi
if grep -q "OverriddenByFlag" "$WORK/err"; then ok "the overridden config value is a warning"; else fail "no OverriddenByFlag warning"; fi
run simulate --profile book "$EX/simulator-export.json"
if grep -q "IgnoredByProfile" "$WORK/err"; then ok "--profile book says it ignores the KubeSchedulerConfiguration"; else fail "book profile: no warning for the config"; fi

# podInitialBackoffSeconds/podMaxBackoffSeconds reach the queue (with SchedulerPopFromBackoffQ off,
# the preemptor waits out its backoff after the victim's 10 s grace period).
printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npodInitialBackoffSeconds: 60\npodMaxBackoffSeconds: 60\n' >"$WORK/slow-backoff.yaml"
run simulate --feature-gates SchedulerPopFromBackoffQ=false -o json "$EX/cascade.yaml"
if json_check "$WORK/out" 'any(e["reason"]=="Scheduled" and e["pod"]=="default/api" and e["time"]==10 for e in d["events"])'; then ok "default backoff: api scheduled at 10 s"; else fail "default backoff timing"; fi
run simulate --feature-gates SchedulerPopFromBackoffQ=false -o json "$EX/cascade.yaml" "$WORK/slow-backoff.yaml"
if json_check "$WORK/out" 'any(e["reason"]=="Scheduled" and e["pod"]=="default/api" and e["time"]==60 for e in d["events"])'; then ok "podInitialBackoffSeconds 60: api scheduled at 60 s"; else fail "config backoff not applied"; fi

expect_rc "invalid KubeSchedulerConfiguration is refused by validate" 1 validate "$DATA/scheduler-config-invalid.yaml"
if grep -q "percentageOfNodesToScore: Invalid value: 101: not in valid range \[0-100\]" "$WORK/err"; then ok "kube-scheduler's validation message with field"; else fail "config validation message"; fi
expect_rc "valid KubeSchedulerConfiguration validates" 0 validate "$DATA/scheduler-config.yaml"
# Inputs that never end or never stop expanding are refused promptly, with a message on stderr.
timed_run() {
  timeout 20 "$KPSIM" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
  rc=$?
}
timed_run validate /dev/zero
if [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ]; then ok "/dev/zero is refused (exit $rc)"; else fail "/dev/zero: exit $rc"; fi
if grep -q "/dev/zero.*NUL" "$WORK/err"; then ok "/dev/zero: the message names the file"; else fail "/dev/zero: no message"; fi
printf 'kind: List\nitems: &a\n- {kind: List, items: *a}\n' >"$WORK/self.yaml"
printf '&a {kind: List, items: [*a]}\n' >"$WORK/self2.yaml"
for f in self self2; do
  timed_run validate "$WORK/$f.yaml"
  if [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ]; then ok "a List containing itself ($f) is refused (exit $rc)"; else fail "$f.yaml: exit $rc"; fi
  if grep -q "$f.yaml:.*anchor \"a\" value contains itself" "$WORK/err"; then ok "$f.yaml: the message names file and anchor"; else fail "$f.yaml: no anchor message"; fi
done

# --- workloads and --arrival ------------------------------------------------------------------
WL="$SRC/tests/scenarios/workloads"
expect_rc "simulate expands Deployment, Job, StatefulSet and DaemonSet" 0 \
  simulate -o json --origin 2024-01-01T00:00:00Z "$WL/controllers-replace-preempted-pods/cluster.yaml"
cp "$WORK/out" "$WORK/workloads1.json"
if json_check "$WORK/out" 'len(d["pods"]) == 11 and sum(1 for p in d["pods"] if p.get("replacementOf")) == 3 and not d["ignored"]'; then
  ok "workload pods and their replacements appear in simulate json"
else
  fail "workload pods missing from simulate json"
fi
run simulate -o json --origin 2024-01-01T00:00:00Z "$WL/controllers-replace-preempted-pods/cluster.yaml"
if cmp -s "$WORK/out" "$WORK/workloads1.json"; then ok "workload expansion is byte-identical across runs"; else fail "workload expansion differs between runs"; fi
run simulate -o json --seed 2 --origin 2024-01-01T00:00:00Z "$WL/controllers-replace-preempted-pods/cluster.yaml"
if python3 -c 'import json,sys; names=lambda f: sorted(p["pod"] for p in json.load(open(f))["pods"]); sys.exit(0 if names(sys.argv[1]) != names(sys.argv[2]) else 1)' "$WORK/out" "$WORK/workloads1.json"; then
  ok "--seed changes the generated pod names"
else
  fail "--seed does not change the generated pod names"
fi
expect_rc "validate expands workloads" 0 validate -o json "$WL/arrival-sequential-low-then-high/cluster.yaml"
if json_check "$WORK/out" 'd["summary"]["rejected"] == 0'; then ok "validate admits the Deployment's pods"; else fail "validate rejected workload pods"; fi

LH="$WL/arrival-sequential-low-then-high/cluster.yaml"
expect_rc "simulate --arrival sequential" 0 simulate -o json --arrival sequential "$LH"
if json_check "$WORK/out" 'any(e["reason"]=="Preempted" and e["by"]=="default/high" for e in d["events"])'; then
  ok "--arrival sequential: high preempts low"
else
  fail "--arrival sequential: no preemption by high"
fi
expect_rc "simulate --arrival together" 0 simulate -o json --arrival together "$LH"
if json_check "$WORK/out" 'not any(e["reason"]=="Preempted" for e in d["events"])'; then
  ok "--arrival together (default): nothing preempted"
else
  fail "--arrival together preempted"
fi
expect_rc "explain --arrival sequential" 0 explain -o json --arrival sequential --pod high "$LH"
if json_check "$WORK/out" 'd.get("chosen") and d["chosen"]["node"] == "node-a"'; then
  ok "explain --arrival sequential explains high against the applied low pods"
else
  fail "explain --arrival sequential did not see the earlier apply"
fi
expect_rc "--arrival with a bad value is a usage error" 2 simulate --arrival sometimes "$LH"

# A refused workload: file, line, object, field and Kubernetes' message on stderr.
cat >"$WORK/bad-deploy.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: c, image: x}]}
YAML
expect_rc "validate refuses a selector that does not match" 1 validate "$WORK/bad-deploy.yaml"
if grep -q 'bad-deploy.yaml:8 (document 1): Deployment default/web: spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`' "$WORK/err"; then
  ok "the refusal names file, line, object and field"
else
  fail "the refusal message is not Kubernetes'"
fi
# --- durations: Go's time.ParseDuration syntax, floored to the microsecond clock --------------------
GR="$EX/graceful-race.yaml"
# same_run A B: the two --until values give byte-identical JSON.
same_run() {
  run simulate -o json --until "$1" "$GR"; cp "$WORK/out" "$WORK/u1.json"; local r1=$rc
  run simulate -o json --until "$2" "$GR"; cp "$WORK/out" "$WORK/u2.json"
  if [ "$r1" -eq 0 ] && [ "$rc" -eq 0 ] && cmp -s "$WORK/u1.json" "$WORK/u2.json"; then
    ok "--until $1 runs as --until $2"
  else
    fail "--until $1 differs from --until $2 (exit $r1/$rc)"
  fi
}
same_run 1.5h 90m
same_run 90m 5400s
same_run 1h30m 5400000ms
same_run "10µs" 10us
same_run "10μs" 10us
same_run +5s 5s
same_run 500ns 0
same_run 1500ns 1us
same_run 5000000999ns 5s
same_run 2.5s 2s500ms
# events_at_most UNTIL SECONDS: every event at or before SECONDS and the run ends "until" there.
run simulate -o json --until 4999999999ns "$GR"
if [ "$rc" -eq 0 ] && json_check "$WORK/out" 'd["endReason"]=="until" and all(e["time"] < 5 for e in d["events"])'; then
  ok "--until 4999999999ns stops before the events at 5s (floored to 4.999999s)"
else
  fail "--until 4999999999ns: exit $rc or events at 5s"
fi
run simulate -o json --until 5s "$GR"
if json_check "$WORK/out" 'any(e["time"]==5 for e in d["events"]) and not any(e["time"] > 5 for e in d["events"])'; then
  ok "--until 5s includes the events at 5s and none after"
else
  fail "--until 5s event times"
fi
for bad in 1.5.5s 5 00 -5s 1d 1S "1s " "" 3000000h 9223372036854775808ns 1e3s .s; do
  usage "--until \"$bad\" refused" simulate --until "$bad" "$GR"
done
run simulate --until 1.5.5s "$GR"
if grep -q 'invalid duration "1.5.5s"' "$WORK/err"; then ok "--until 1.5.5s names the text"; else fail "--until 1.5.5s message"; fi
run simulate --until -5s "$GR"
if grep -q "negative" "$WORK/err"; then ok "--until -5s: negative is refused as such"; else fail "--until -5s message"; fi

# --- --seed: a whole number 0..2^64-1 ---------------------------------------------------------------
for bad in -1 1.5 18446744073709551616 0x10 " 1" ""; do
  usage "--seed \"$bad\" refused" simulate --seed "$bad" "$EX/cascade.yaml"
done
usage "--seed=-1 refused" simulate --seed=-1 "$EX/cascade.yaml"
run simulate --seed -1 "$EX/cascade.yaml"
if grep -q -- '--seed: invalid seed "-1"' "$WORK/err"; then ok "--seed -1 says why"; else fail "--seed -1 message"; fi
expect_rc "--seed 18446744073709551615 accepted" 0 simulate --seed 18446744073709551615 "$EX/cascade.yaml"
expect_rc "--seed 0 accepted" 0 simulate --seed 0 "$EX/cascade.yaml"
expect_rc "explain --seed -1 refused" 2 explain --seed -1 --pod default/api "$EX/cascade.yaml"

# --- unknown commands and flags: the nearest known one ----------------------------------------------
# suggests NAME WANT ARGS...: exit 2, stdout empty, stderr is exactly "kpsim: WANT".
suggests() {
  local name=$1 want=$2
  shift 2
  usage "$name" "$@"
  if [ "$(cat "$WORK/err")" = "kpsim: $want" ]; then ok "$name: \"$want\""; else fail "$name: stderr \"$(head -1 "$WORK/err")\", want \"$want\""; fi
}
suggests "mistyped command" 'unknown command "simulat"; did you mean simulate?' simulat "$EX/cascade.yaml"
suggests "mistyped command (swap)" 'unknown command "vaildate"; did you mean validate?' vaildate "$EX/cascade.yaml"
suggests "unrelated command" 'unknown command "frobnicate" (commands: simulate, validate, explain, evict, serve, diff, sweep)' frobnicate "$EX/cascade.yaml"
suggests "mistyped flag" 'unknown flag --unitl; did you mean --until?' simulate --unitl 5m "$EX/cascade.yaml"
suggests "mistyped flag with =" 'unknown flag --unitl; did you mean --until?' simulate --unitl=5m "$EX/cascade.yaml"
suggests "mistyped flag after a valued flag" 'unknown flag --sed; did you mean --seed?' simulate -o json --sed 3 "$EX/cascade.yaml"
suggests "flag prefix" 'unknown flag --feature; did you mean --feature-gates?' validate --feature GenericWorkload=true "$EX/cascade.yaml"
suggests "explain flag" 'unknown flag --pdo; did you mean --pod?' explain --pdo default/api "$EX/cascade.yaml"
suggests "another command's flag" 'unknown flag --until for validate (it is a flag of simulate)' validate --until 5m "$EX/cascade.yaml"
suggests "top-level flag" 'unknown flag --verison; did you mean --version?' --verison
suggests "no near flag" 'unknown flag --zzzzzz for simulate (see kpsim simulate --help)' simulate --zzzzzz "$EX/cascade.yaml"
# A value that looks like a flag is still the value of the flag before it.
usage "--until value -5s is a value, not a flag" simulate --until -5s "$EX/cascade.yaml"
if grep -q "negative" "$WORK/err"; then ok "--until -5s reaches the duration check"; else fail "--until -5s treated as a flag"; fi

# --- each text line names its file once ---------------------------------------------------------
# A YAML syntax error, an object the decoder refuses, one admission rejects, a skipped file and a
# RemovedAPIVersion warning, in validate's and simulate's text output and on stderr.
DUP="$WORK/dup"
mkdir -p "$DUP/dir"
printf 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: "1", memory: 1Gi, pods: "10"}}\n---\nkind: Pod\nmetadata: {name: p\n  bad: [\n' >"$DUP/syntax.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: neg}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: "-1"}}}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: unk}\nspec: {priorityClassName: nope, containers: [{name: c}]}\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: old}\nspec: {minAvailable: 1, selector: {matchLabels: {app: a}}}\n' >"$DUP/dir/rejected.yaml"
echo "notes" >"$DUP/dir/notes.txt"
# once_per_line NAME FILE: no line of FILE holds one of the inputs' paths twice.
once_per_line() {
  if python3 - "$2" "$DUP/syntax.yaml" "$DUP/dir/rejected.yaml" "$DUP/dir/notes.txt" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
bad = [l for l in lines for f in sys.argv[2:] if l.count(f) > 1]
for l in bad: print("     twice: " + l)
sys.exit(1 if bad else 0)
PY
  then ok "$1 names each file once per line"; else fail "$1 repeats a file name in one line"; fi
}
for cmd in validate simulate; do
  run "$cmd" "$DUP/syntax.yaml" "$DUP/dir"
  once_per_line "$cmd text" "$WORK/out"
  once_per_line "$cmd stderr" "$WORK/err"
  for what in "YAML syntax error" "must be greater than or equal to 0" 'no PriorityClass with name nope' "not a manifest" "RemovedAPIVersion"; do
    if grep -qF "$what" "$WORK/out"; then ok "$cmd text reports: $what"; else fail "$cmd text lacks: $what"; fi
  done
done
# Many skipped files under one directory: one counting warning, placed at the directory, which
# its message does not name again.
mkdir -p "$DUP/many"
for i in 1 2 3 4 5 6 7; do echo x >"$DUP/many/log$i.txt"; done
run validate "$DUP/many" "$DUP/dir"
if grep -qF "warning: $DUP/many: 7 entries: not a manifest" "$WORK/err" && ! grep -qF "$DUP/many: 7 entries under $DUP/many" "$WORK/err"; then
  ok "counting SkippedFile warning names its directory once"
else
  fail "counting SkippedFile warning: $(grep -F 'entries' "$WORK/err" | head -1)"
fi
run simulate "$DUP/syntax.yaml" "$DUP/dir"
if grep -qF "  $DUP/syntax.yaml:8 (document 2): YAML syntax error" "$WORK/out"; then
  ok "simulate text: a read error is its own self-contained line"
else
  fail "simulate text: read error line shape"
fi
if grep -qF "  Pod default/unk [$DUP/dir/rejected.yaml:7]: pods \"unk\" is forbidden" "$WORK/out"; then
  ok "simulate text: an admission rejection names object, place and message once"
else
  fail "simulate text: admission rejection line shape"
fi

# --- spec.schedulingGates: gated pods stay pending, gates validated -------------------------------
GATED="$SRC/tests/scenarios/queue/scheduling-gates-keep-pod-pending/cluster.yaml"
expect_rc "simulate with a gated pod" 0 simulate "$GATED"
if grep -qF "default/gated (priority 1000, SchedulingGated): waiting for scheduling gates: [example.com/quota wait]" "$WORK/out"; then
  ok "simulate text shows the gated pod SchedulingGated with upstream's message"
else
  fail "simulate text: gated pod line"
fi
if grep -q "NotModelled" "$WORK/out" "$WORK/err"; then fail "schedulingGates still warned NotModelled"; else ok "schedulingGates no longer NotModelled"; fi
run simulate -o json "$GATED"
if json_check "$WORK/out" 'any(p["pod"]=="default/gated" and p.get("condition")=="SchedulingGated" and p["state"]=="Pending" for p in d["pods"]) and not any(e["pod"]=="default/gated" for e in d["events"])'; then
  ok "simulate json: gated pod Pending, condition SchedulingGated, no events"
else
  fail "simulate json: gated pod"
fi
expect_rc "explain a gated pod" 2 explain --pod default/gated "$GATED"
if grep -qF "is SchedulingGated (waiting for scheduling gates: [example.com/quota wait])" "$WORK/err"; then ok "explain says the pod is gated"; else fail "explain gated message"; fi
run simulate --profile book "$SRC/tests/scenarios/queue/scheduling-gates-ignored-by-book-profile/cluster.yaml"
if grep -q "IgnoredByProfile" "$WORK/err"; then ok "book profile warns that it ignores schedulingGates"; else fail "book profile: no IgnoredByProfile for gates"; fi
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: twice}\nspec:\n  schedulingGates: [{name: a}, {name: a}]\n  containers: [{name: c}]\n' >"$WORK/dup-gates.yaml"
expect_rc "validate duplicate gates" 1 validate "$WORK/dup-gates.yaml"
if grep -qF 'spec.schedulingGates[1]: Duplicate value: "a"' "$WORK/out"; then ok "validate names the duplicate gate"; else fail "validate duplicate gate message"; fi

# --- --max-input-size: the per-input cap, raised or lowered ----------------------------------
SIZE_IN="$EX/cascade.yaml"
expect_rc "validate --max-input-size 100 refuses a bigger file" 1 validate --max-input-size 100 "$SIZE_IN"
if grep -qF "input is larger than 100 bytes" "$WORK/out" "$WORK/err"; then
  ok "--max-input-size: the refusal names the cap"
else
  fail "--max-input-size: no 'larger than 100 bytes' message"
fi
expect_rc "validate --max-input-size 2Gi reads the file" 0 validate --max-input-size 2Gi "$SIZE_IN"
usage "--max-input-size not a quantity" validate --max-input-size lots "$SIZE_IN"
usage "--max-input-size zero" simulate --max-input-size 0 "$SIZE_IN"

# --- decision records: simulate's `decisions` in json, text and html -------------------------
# Always an array; every decision belongs to a round that has a Preempted or Nominated event; the
# text and the HTML show a section exactly when there are decisions.
for DEC_IN in "$EX/cascade.yaml" "$EX/pdb-protected.yaml" "$EX/never-preempt.yaml"; do
  DEC_NAME=$(basename "$DEC_IN")
  run simulate -o json "$DEC_IN"
  cp "$WORK/out" "$WORK/decisions.json"
  if json_check "$WORK/decisions.json" 'isinstance(d.get("decisions"), list) and all(any(e.get("round") == x["round"] and e["reason"] in ("Preempted", "Nominated") for e in d["events"]) and all(k in x for k in ("round","time","preemptor","node","victims","decidedBy","decidedByLabel","candidates","candidateCount","nodesEvaluated","pdbs","units","nominations")) for x in d["decisions"])'; then
    ok "decisions: $DEC_NAME json has a decisions array tied to its rounds"
  else
    fail "decisions: $DEC_NAME json decisions missing or not tied to a Preempted/Nominated round"
  fi
  DEC_N=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["decisions"]))' "$WORK/decisions.json" 2>/dev/null || echo x)
  run simulate "$DEC_IN"
  if grep -q "^Preemption decisions ($DEC_N):" "$WORK/out" || { [ "$DEC_N" = 0 ] && ! grep -q "^Preemption decisions" "$WORK/out"; }; then
    ok "decisions: $DEC_NAME text section matches the json ($DEC_N)"
  else
    fail "decisions: $DEC_NAME text section does not match the json's $DEC_N decisions"
  fi
  run simulate -o html "$DEC_IN"
  if { [ "$DEC_N" = 0 ] && ! grep -q 'id="decisions"' "$WORK/out"; } || { [ "$DEC_N" != 0 ] && [ "$DEC_N" != x ] && grep -q '<section id="decisions">' "$WORK/out"; }; then
    ok "decisions: $DEC_NAME html panel matches the json ($DEC_N)"
  else
    fail "decisions: $DEC_NAME html panel does not match the json's $DEC_N decisions"
  fi
done

# --- side by side: kpsim diff and simulate --compare ------------------------------------------
run simulate -o json "$EX/pdb-protected.yaml"
cp "$WORK/out" "$WORK/run-default.json"
run simulate -o json --profile book "$EX/pdb-protected.yaml"
cp "$WORK/out" "$WORK/run-book.json"
expect_rc "diff of a run with itself" 0 diff "$WORK/run-default.json" "$WORK/run-default.json"
if grep -q "No differences" "$WORK/out"; then ok "diff: a run against itself has no differences"; else fail "diff: self-diff reports differences"; fi
expect_rc "diff json" 0 diff -o json "$WORK/run-default.json" "$WORK/run-book.json"
if json_check "$WORK/out" 'd["identical"] is False and d["a"]["profile"] == "default" and d["b"]["profile"] == "book" and any(c["a"]["pod"] == "default/report" for c in d["placements"])'; then
  ok "diff json: default against book names the profiles and the pod placed differently"
else
  fail "diff json: default against book lacks the profiles or default/report's placement"
fi
expect_rc "diff of a manifest (not a run) is a usage error" 2 diff "$WORK/run-default.json" "$EX/cascade.yaml"
if grep -q "cascade.yaml: not JSON" "$WORK/err"; then ok "diff names the file that is not a run"; else fail "diff: no message naming the bad file"; fi
expect_rc "diff needs two runs" 2 diff "$WORK/run-default.json"
expect_rc "diff of a missing file" 2 diff "$WORK/run-default.json" "$WORK/nope.json"

expect_rc "simulate --compare json" 0 simulate -o json "$EX/pdb-protected.yaml" --compare profile=book --compare 'seed=2 until=1s'
if json_check "$WORK/out" 'len(d["comparisons"]) == 2 and d["base"]["profile"] == "default" and d["comparisons"][0]["b"]["profile"] == "book" and d["comparisons"][1]["b"]["seed"] == "2" and d["comparisons"][1]["b"]["endTime"] <= 1.0'; then
  ok "simulate --compare: one comparison per setting, each run under its settings"
else
  fail "simulate --compare json: comparisons do not follow the settings"
fi
# The comparison equals diffing the two saved runs.
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["comparisons"][0]["placements"]))' "$WORK/out" > "$WORK/cmp-placements" 2>/dev/null
run diff -o json "$WORK/run-default.json" "$WORK/run-book.json"
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["placements"]))' "$WORK/out" > "$WORK/diff-placements" 2>/dev/null
if [ -s "$WORK/cmp-placements" ] && cmp -s "$WORK/cmp-placements" "$WORK/diff-placements"; then
  ok "simulate --compare profile=book equals diff of the two saved runs"
else
  fail "simulate --compare and diff disagree on placements"
fi
expect_rc "simulate --compare text" 0 simulate "$EX/cascade.yaml" --compare seed=2
if grep -q "B: seed=2" "$WORK/out"; then ok "simulate --compare text names the setting"; else fail "simulate --compare text lacks the setting"; fi
expect_rc "simulate --compare with an unknown key" 2 simulate "$EX/cascade.yaml" --compare colour=blue
if grep -q "unknown setting colour" "$WORK/err"; then ok "--compare names the unknown key"; else fail "--compare: no message for the unknown key"; fi
expect_rc "simulate --compare with a bad value" 2 simulate "$EX/cascade.yaml" --compare seed=-1
# -o html: a page of the same tables, embedding exactly what -o json prints.
embedded_json() {
  python3 -c 'import base64,json,re,sys,zlib
m = re.search(r"<script type=\"application/json\" id=\"kpsim-data\"( data-encoding=\"deflate-base64\")?>(.*?)</script>", open(sys.argv[1]).read(), re.S)
text = zlib.decompress(base64.b64decode(m.group(2))).decode() if m.group(1) else m.group(2)
print(json.dumps(json.loads(text), sort_keys=True))' "$1" 2>/dev/null
}
expect_rc "simulate --compare -o html" 0 simulate -o html "$EX/pdb-protected.yaml" --compare profile=book
cp "$WORK/out" "$WORK/compare.html"
run simulate -o json "$EX/pdb-protected.yaml" --compare profile=book
if grep -q '<section id="compare-1">' "$WORK/compare.html" && grep -q 'A (as given) against B (profile=book)' "$WORK/compare.html" &&
   [ "$(embedded_json "$WORK/compare.html")" = "$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])), sort_keys=True))' "$WORK/out")" ]; then
  ok "simulate --compare -o html: a section per setting, embedding the -o json output"
else
  fail "simulate --compare -o html lacks its section or its embedded JSON differs from -o json"
fi
expect_rc "diff html" 0 diff -o html "$WORK/run-default.json" "$WORK/run-book.json"
if grep -q '<table class="diff-figures">' "$WORK/out" && grep -q 'class="changed-row"' "$WORK/out" && grep -q 'data-pod="default/report"' "$WORK/out"; then
  ok "diff -o html: the figures with the changed rows marked, and the pod placed differently"
else
  fail "diff -o html lacks the figures, the changed rows or default/report"
fi

# --compare takes one argument: the words after it are files again.
expect_rc "simulate --compare then two files" 0 simulate -o json --compare seed=2 "$EX/cascade.yaml" "$EX/never-preempt.yaml"
if json_check "$WORK/out" 'len(d["comparisons"]) == 1'; then ok "--compare takes one setting and leaves the files"; else fail "--compare took a file as a setting"; fi

# serve DIR offers the files in the order simulate reads them, hidden entries left out.
mkdir -p "$WORK/servedir/a" "$WORK/servedir/.hidden"
cp "$EX/cascade.yaml" "$WORK/servedir/b.yaml"
cp "$EX/never-preempt.yaml" "$WORK/servedir/a/pods.yaml"
cp "$EX/cascade.yaml" "$WORK/servedir/.hidden/x.yaml"
timeout 30 "$KPSIM" serve --addr 127.0.0.1:0 "$WORK/servedir" 2>"$WORK/serve-err" &
SERVE_PID=$!
for _ in $(seq 1 50); do grep -q "listening on" "$WORK/serve-err" && break; sleep 0.1; done
SERVE_URL=$(grep -o 'http://[^ ]*' "$WORK/serve-err" | head -1)
SERVE_FILES=$(python3 -c 'import json,sys,urllib.request; print(" ".join(f["name"].rsplit("servedir/",1)[1] for f in json.load(urllib.request.urlopen(sys.argv[1] + "api/files"))))' "$SERVE_URL" 2>/dev/null)
# Huge pages (src/app/huge_pages.h): where the kernel gives them on request, kpsim runs itself again
# with glibc's tunable; an ASan build (its own allocator) does not.
SERVE_ENV=$(tr '\0' '\n' <"/proc/$(pgrep -P "$SERVE_PID" | head -1)/environ" 2>/dev/null | grep '^GLIBC_TUNABLES=')
kill "$SERVE_PID" 2>/dev/null; wait "$SERVE_PID" 2>/dev/null
if [ "$SERVE_FILES" = "b.yaml a/pods.yaml" ]; then ok "serve DIR: files in simulate's order, hidden left out"; else fail "serve DIR offers \"$SERVE_FILES\""; fi
if grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && [ -z "${ASAN_OPTIONS:-}" ] && [ -z "${KPSIM_HUGE_PAGES:-}" ]; then
  if [ "$SERVE_ENV" = "GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1" ]; then ok "kpsim runs with glibc's huge pages"; else fail "huge pages: environment \"$SERVE_ENV\""; fi
  KPSIM_HUGE_PAGES=0 timeout 30 "$KPSIM" serve --addr 127.0.0.1:0 "$WORK/servedir" 2>"$WORK/serve-err" &
  SERVE_PID=$!
  for _ in $(seq 1 50); do grep -q "listening on" "$WORK/serve-err" && break; sleep 0.1; done
  SERVE_ENV=$(tr '\0' '\n' <"/proc/$(pgrep -P "$SERVE_PID" | head -1)/environ" 2>/dev/null | grep '^GLIBC_TUNABLES=')
  kill "$SERVE_PID" 2>/dev/null; wait "$SERVE_PID" 2>/dev/null
  if [ "$SERVE_ENV" = "${GLIBC_TUNABLES:+GLIBC_TUNABLES=$GLIBC_TUNABLES}" ]; then ok "KPSIM_HUGE_PAGES=0: environment as given"; else fail "KPSIM_HUGE_PAGES=0: environment \"$SERVE_ENV\""; fi
elif [ -n "${ASAN_OPTIONS:-}" ]; then
  if [ "$SERVE_ENV" = "${GLIBC_TUNABLES:+GLIBC_TUNABLES=$GLIBC_TUNABLES}" ]; then ok "ASan build: no huge-page tunable"; else fail "ASan build: environment \"$SERVE_ENV\""; fi
fi

# --- kpsim serve: flag errors are usage errors (the server itself: tests/e2e, tests/load) -------
expect_rc "serve --addr without a port" 2 serve --addr localhost
expect_rc "serve --addr with a bad port" 2 serve --addr 127.0.0.1:99999
expect_rc "serve --run-timeout 0" 2 serve --run-timeout 0s
expect_rc "serve --max-body nonsense" 2 serve --max-body lots
expect_rc "serve --threads 0" 2 serve --threads 0
if grep -q -- "--threads: must be a whole number, at least 1, got \"0\"" "$WORK/err"; then ok "serve --threads 0 says what a count is"; else fail "serve --threads 0: unclear message"; fi
expect_rc "serve of a missing file" 2 serve --addr 127.0.0.1:0 "$WORK/nope.yaml"
# A port that is taken: a listener of our own holds it.
BUSY_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
python3 -c 'import socket,sys,time; s=socket.socket(); s.bind(("127.0.0.1",int(sys.argv[1]))); s.listen(); print("ready", flush=True); time.sleep(30)' "$BUSY_PORT" > "$WORK/busy" &
BUSY_PID=$!
for _ in $(seq 1 100); do grep -q ready "$WORK/busy" 2>/dev/null && break; sleep 0.1; done
# (bounded: should the port be free after all, the server would otherwise serve forever)
timeout 10 "$KPSIM" serve --addr "127.0.0.1:$BUSY_PORT" >"$WORK/out" 2>"$WORK/err" </dev/null
rc=$?
if [ "$rc" -eq 2 ]; then ok "serve on a port in use (exit 2)"; else fail "serve on a port in use: exit $rc, want 2"; fi
if grep -q "cannot listen on 127.0.0.1:$BUSY_PORT" "$WORK/err"; then ok "serve names the address it cannot listen on"; else fail "serve: no message for the busy port"; fi
kill "$BUSY_PID" 2>/dev/null; wait "$BUSY_PID" 2>/dev/null

# --- kpsim sweep: a grid of runs, sharded across processes, merged byte for byte ----------------
SW="$EX/sweep/sweep.yaml"
expect_rc "sweep" 0 sweep "$SW"
cp "$WORK/out" "$WORK/sweep-all.jsonl"
if python3 -c 'import json,sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "" and len(lines) == 25
keys = ["run","runs","input","overlay","profile","featureGates","seed","specDigest","status","pods","disruption"]
for i, text in enumerate(lines[:-1]):
    d = json.loads(text)
    assert list(d) == keys and d["run"] == i and d["runs"] == 24 and d["status"] == "ok", text[:120]
    assert ", " not in text and ": " not in text
d = [json.loads(t) for t in lines[:-1]]
assert len({x["specDigest"] for x in d}) == 1 and len(d[0]["specDigest"]) == 16 and int(d[0]["specDigest"], 16) >= 0
assert [(x["input"], x["overlay"], x["profile"], x["seed"]) for x in d[:5]] == [("today","none","default",1), ("today","none","default",2), ("today","none","book",1), ("today","none","book",2), ("today","web-x3","default",1)]
assert d[0]["disruption"]["evictedPods"] == 0 and d[12]["disruption"]["evictedPods"] == 2 and len(d[12]["disruption"]["pdbsBroken"]) == 1
assert d[4]["pods"]["total"] - d[4]["disruption"]["evictedPods"] == d[0]["pods"]["total"] + 6' "$WORK/sweep-all.jsonl" 2>"$WORK/err"; then
  ok "sweep: 24 compact JSON lines in grid order, keys in order, overlays changing the runs"
else
  fail "sweep lines"
fi
# The same disruption object as simulate -o json of the same run (with-train/none/default/seed 1).
run simulate -o json --arrival sequential --until 10m "$EX/sweep/cluster/" "$EX/sweep/train-job.yaml"
if python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["disruption"]; b=json.loads(open(sys.argv[2]).read().split("\n")[12])["disruption"]; sys.exit(0 if a == b else 1)' "$WORK/out" "$WORK/sweep-all.jsonl"; then
  ok "sweep: a line's disruption is simulate -o json's"
else
  fail "sweep: a line's disruption differs from simulate -o json's"
fi
run sweep --jobs 1 "$SW"
if cmp -s "$WORK/out" "$WORK/sweep-all.jsonl"; then ok "sweep --jobs 1: the same bytes"; else fail "sweep --jobs 1 differs"; fi
# More jobs than cores: capped at the cores, said on stderr, the same bytes.
run sweep --jobs 100000 "$SW"
if cmp -s "$WORK/out" "$WORK/sweep-all.jsonl" && grep -q -- "--jobs 100000 is more than this machine's [0-9]* cores: running [0-9]* at once" "$WORK/err"; then
  ok "sweep --jobs 100000: capped at the cores, the same bytes"
else
  fail "sweep --jobs 100000: not capped or not the same bytes"
fi
# Three shards, three processes at once (as an Indexed Job's pods), merged in any order.
for i in 0 1 2; do
  JOB_COMPLETION_INDEX=$i "$KPSIM" sweep "$SW" --shards 3 --jobs 2 >"$WORK/shard-$i.jsonl" 2>/dev/null </dev/null &
done
wait
expect_rc "sweep merge" 0 sweep merge "$WORK/shard-2.jsonl" "$WORK/shard-0.jsonl" "$WORK/shard-1.jsonl"
if cmp -s "$WORK/out" "$WORK/sweep-all.jsonl"; then ok "sweep merge of 3 shard processes: byte-identical to one process"; else fail "sweep merge differs from the single run"; fi
if [ "$(wc -l <"$WORK/shard-1.jsonl")" -eq 8 ]; then ok "sweep --shards 3: shard 1 ran 8 runs"; else fail "shard 1 ran $(wc -l <"$WORK/shard-1.jsonl") runs"; fi
# More shards than runs: the last shards run nothing, exit 0, and say so (not with -q).
expect_rc "sweep: a shard with no runs" 0 sweep "$SW" --shards 30 --shard 29
if [ ! -s "$WORK/out" ] && grep -q "kpsim: sweep: shard 29 of 30 has no runs: the sweep has 24" "$WORK/err"; then
  ok "sweep: an empty shard is said on stderr"
else
  fail "sweep: an empty shard: $(cat "$WORK/err")"
fi
run sweep -q "$SW" --shards 30 --shard 29
if [ ! -s "$WORK/err" ]; then ok "sweep -q: no note for an empty shard"; else fail "sweep -q: $(cat "$WORK/err")"; fi
"$KPSIM" sweep merge - "$WORK/shard-0.jsonl" "$WORK/shard-2.jsonl" <"$WORK/shard-1.jsonl" >"$WORK/out" 2>"$WORK/err"
if cmp -s "$WORK/out" "$WORK/sweep-all.jsonl"; then ok "sweep merge - (stdin)"; else fail "sweep merge - differs"; fi
# A shard of another sweep with as many runs (a setting, an overlay's name or a seed changed) is
# refused by its specDigest, naming both lines; the same spec in another directory is the same sweep.
rm -rf "$WORK/other-sweeps" && mkdir -p "$WORK/other-sweeps" && cp -r "$EX/sweep" "$WORK/other-sweeps/same"
"$KPSIM" sweep "$WORK/other-sweeps/same/sweep.yaml" --shards 3 --shard 2 >"$WORK/other-sweeps/same-2.jsonl" 2>/dev/null
expect_rc "sweep merge: the same spec elsewhere" 0 sweep merge "$WORK/shard-0.jsonl" "$WORK/shard-1.jsonl" "$WORK/other-sweeps/same-2.jsonl"
for change in 's/until=10m/until=1s/' 's/name: web-x3/name: web-x9/' 's/seeds: \[1, 2\]/seeds: [1, 3]/'; do
  tag=$(echo "$change" | tr -dc 'a-z0-9')
  cp -r "$EX/sweep" "$WORK/other-sweeps/$tag" && sed -i "$change" "$WORK/other-sweeps/$tag/sweep.yaml"
  if cmp -s "$EX/sweep/sweep.yaml" "$WORK/other-sweeps/$tag/sweep.yaml"; then fail "sweep merge: $change changed nothing"; continue; fi
  "$KPSIM" sweep "$WORK/other-sweeps/$tag/sweep.yaml" --shards 3 --shard 2 >"$WORK/other-sweeps/$tag-2.jsonl" 2>/dev/null
  usage "sweep merge: a shard of another spec ($change)" sweep merge "$WORK/shard-0.jsonl" "$WORK/shard-1.jsonl" "$WORK/other-sweeps/$tag-2.jsonl"
  if grep -q "$tag-2.jsonl:1: \"specDigest\" is \"[0-9a-f]*\", but .*shard-0.jsonl:1 says \"[0-9a-f]*\": lines of different sweeps" "$WORK/err"; then
    ok "sweep merge names the line of another sweep ($change)"
  else
    fail "sweep merge: another sweep's message ($change): $(cat "$WORK/err")"
  fi
done
run sweep -o text "$SW"; cp "$WORK/out" "$WORK/sweep-all.txt"
if grep -q '^run  input' "$WORK/out" && grep -q '^with-train  ingress' "$WORK/out" && grep -q 'Sweep: 24 runs shown of 24, 0 failed' "$WORK/out"; then
  ok "sweep -o text: a row per run and per group"
else
  fail "sweep -o text"
fi
run sweep merge -o text "$WORK/shard-0.jsonl" "$WORK/shard-1.jsonl" "$WORK/shard-2.jsonl"
if cmp -s "$WORK/out" "$WORK/sweep-all.txt"; then ok "sweep merge -o text: the same table"; else fail "sweep merge -o text differs"; fi
run sweep "$SW" --results "$WORK/results.jsonl"
if cmp -s "$WORK/results.jsonl" "$WORK/sweep-all.jsonl" && cmp -s "$WORK/out" "$WORK/sweep-all.txt"; then
  ok "sweep --results: the lines in the file, the table on stdout"
else
  fail "sweep --results"
fi
run sweep "$SW" --results "$WORK/results2.jsonl" -o jsonl
if cmp -s "$WORK/out" "$WORK/sweep-all.jsonl" && cmp -s "$WORK/results2.jsonl" "$WORK/sweep-all.jsonl"; then ok "sweep --results -o jsonl: lines on both"; else fail "sweep --results -o jsonl"; fi
# A scale naming a workload the input lacks: that run's error, the others run.
mkdir -p "$WORK/sw"
cp "$EX/sweep/cluster/"*.yaml "$WORK/sw/"
printf 'apiVersion: kpsim.io/v1alpha1\nkind: Sweep\nmetadata: {name: ghost}\nspec:\n  inputs: [{name: c, paths: [.]}]\n  overlays:\n  - name: none\n  - name: ghost\n    scale: [{kind: StatefulSet, name: shop/db, replicas: 2}]\n' >"$WORK/sw/ghost.yaml"
expect_rc "sweep with a failing run" 0 sweep "$WORK/sw/ghost.yaml"
if json_check <(sed -n 2p "$WORK/out") 'd["status"] == "error" and d["error"] == "overlay ghost: scale: input c has no StatefulSet shop/db"' &&
   json_check <(sed -n 1p "$WORK/out") 'd["status"] == "ok"' && grep -q '1 run(s) failed' "$WORK/err"; then
  ok "sweep: a scale of a missing workload is its run's error"
else
  fail "sweep: missing workload"
fi
# Usage errors: exit 2, a message naming the file and the field.
printf 'apiVersion: kpsim.io/v1alpha1\nkind: Sweep\nmetadata: {name: bad}\nspec:\n  inputs: [{name: c, paths: [.]}]\n  seed: [1]\n' >"$WORK/sw/bad.yaml"
usage "sweep: unknown spec field" sweep "$WORK/sw/bad.yaml"
if grep -q "bad.yaml:6: spec.seed: unknown field" "$WORK/err"; then ok "sweep: the bad field named with file and line"; else fail "sweep: bad field message"; fi
printf 'apiVersion: kpsim.io/v1alpha1\nkind: Sweep\nmetadata: {name: bad}\nspec:\n  inputs: [{name: c, paths: [nope/]}]\n' >"$WORK/sw/nopath.yaml"
usage "sweep: a missing input path" sweep "$WORK/sw/nopath.yaml"
usage "sweep without a spec" sweep
usage "sweep of a missing spec" sweep "$WORK/nope.yaml"
usage "sweep --shards 3 without a shard" sweep "$SW" --shards 3
usage "sweep --shard out of range" sweep "$SW" --shards 3 --shard 3
JOB_COMPLETION_INDEX=one usage "sweep: malformed JOB_COMPLETION_INDEX" sweep "$SW" --shards 3
usage "sweep --jobs 0" sweep "$SW" --jobs 0
if grep -q -- "--jobs: must be a whole number, at least 1, got \"0\"" "$WORK/err"; then ok "sweep --jobs 0 says what a count is"; else fail "sweep --jobs 0: unclear message"; fi
usage "sweep --shards past an Indexed Job's completions" sweep "$SW" --shards 100001
if grep -q -- "--shards: must be a whole number from 1 to 100000, got \"100001\"" "$WORK/err"; then ok "sweep --shards 100001 names the range"; else fail "sweep --shards 100001: unclear message"; fi
usage "sweep --emit-job --parallelism 0x2" sweep "$SW" --emit-job --image kpsim --parallelism 0x2
if grep -q -- "--parallelism: must be a whole number, at least 1, got \"0x2\"" "$WORK/err"; then ok "sweep --parallelism 0x2 says what a count is"; else fail "sweep --parallelism 0x2: unclear message"; fi
usage "sweep -o json" sweep "$SW" -o json
# A count with a leading zero is decimal: CLI11 alone would read --shards 010 as 8.
expect_rc "sweep --emit-job --shards 010" 0 sweep "$SW" --emit-job --image kpsim --shards 010 --parallelism 012
if grep -q "^  completions: 10$" "$WORK/out" && grep -q "^  parallelism: 12$" "$WORK/out"; then ok "sweep --shards 010 --parallelism 012 are 10 and 12"; else fail "sweep --shards 010: not read as decimal 10"; fi
if grep -q "warning: --parallelism 12 is more than --shards 10: the Job runs at most 10 pods at once" "$WORK/err"; then ok "sweep --parallelism past --shards is said"; else fail "sweep --parallelism past --shards: no warning"; fi
usage "sweep --image without --emit-job" sweep "$SW" --image x
usage "sweep --emit-job without --image" sweep "$SW" --emit-job
head -n 5 "$WORK/sweep-all.jsonl" >"$WORK/partial.jsonl"
usage "sweep merge: missing runs" sweep merge "$WORK/partial.jsonl"
if grep -q "missing runs 5, 6," "$WORK/err"; then ok "sweep merge names the missing runs"; else fail "sweep merge missing message"; fi
usage "sweep merge: a duplicate run" sweep merge "$WORK/sweep-all.jsonl" "$WORK/partial.jsonl"
if grep -q "partial.jsonl:1: run 0 appears twice (first at .*sweep-all.jsonl:1)" "$WORK/err"; then ok "sweep merge names the duplicate's file and line"; else fail "sweep merge duplicate message"; fi
ln -sf "$WORK/partial.jsonl" "$WORK/partial-link.jsonl"
usage "sweep merge: one file under two names" sweep merge "$WORK/partial.jsonl" "$WORK/./partial-link.jsonl"
if grep -q "sweep merge: $WORK/./partial-link.jsonl: given twice (as $WORK/partial.jsonl)" "$WORK/err"; then ok "sweep merge: a file under two names is given twice"; else fail "sweep merge: a file under two names: $(cat "$WORK/err")"; fi
{ cat "$WORK/sweep-all.jsonl"; echo "warning: not a line"; } >"$WORK/noisy.jsonl"
usage "sweep merge: a malformed line" sweep merge "$WORK/noisy.jsonl"
if grep -q "noisy.jsonl:25: not a kpsim sweep line" "$WORK/err"; then ok "sweep merge names the malformed line"; else fail "sweep merge malformed message"; fi
usage "sweep merge without files" sweep merge
# --emit-job: a ConfigMap and an Indexed Job; their pods, played here, merge into the single run.
expect_rc "sweep --emit-job" 0 sweep "$SW" --emit-job --image registry.example/kpsim:0.1 --shards 3 --results-claim sweep-results
cp "$WORK/out" "$WORK/job.yaml"
# Python's yaml module parses the YAML and plays the Job; without it, the key fields are grepped.
if python3 -c 'import yaml' 2>/dev/null; then HAVE_PYYAML=1; else HAVE_PYYAML=0; echo "skip sweep --emit-job: no Python yaml module (python3-yaml): the Job is grepped, not played"; fi
if [ "$HAVE_PYYAML" -eq 0 ]; then
  if grep -q '^kind: ConfigMap' "$WORK/job.yaml" && grep -q '^  completionMode: Indexed' "$WORK/job.yaml" && grep -q '^  completions: 3' "$WORK/job.yaml" &&
     grep -q 'restartPolicy: Never' "$WORK/job.yaml" && grep -q 'args: \["sweep", "/sweep/sweep.yaml", "--shards", "3"' "$WORK/job.yaml"; then
    ok "sweep --emit-job: the key fields of an Indexed Job of 3"
  else
    fail "sweep --emit-job YAML (grepped)"
  fi
elif python3 -c 'import sys,yaml; d=[x for x in yaml.safe_load_all(open(sys.argv[1])) if x]; j=d[1]["spec"]; c=j["template"]["spec"]["containers"][0]
assert [x["kind"] for x in d] == ["ConfigMap","Job"] and d[0]["metadata"]["name"] == "kpsim-sweep-tiers" == d[1]["metadata"]["name"]
assert j["completionMode"] == "Indexed" and j["completions"] == 3 and j["parallelism"] == 3 and j["template"]["spec"]["restartPolicy"] == "Never"
assert c["image"] == "registry.example/kpsim:0.1" and c["command"] + c["args"][:4] == ["kpsim","sweep","/sweep/sweep.yaml","--shards","3"]
assert "/results/shard-$(JOB_COMPLETION_INDEX).jsonl" in c["args"]' "$WORK/job.yaml" 2>"$WORK/err"; then
  ok "sweep --emit-job: the Kubernetes YAML parses, an Indexed Job of 3"
else
  fail "sweep --emit-job YAML"
fi
if [ "$HAVE_PYYAML" -eq 0 ]; then
  :
elif python3 "$SRC/tests/cli/run_sweep_job.py" "$WORK/job.yaml" "$KPSIM" "$WORK/jobrun" >/dev/null 2>"$WORK/err" &&
   "$KPSIM" sweep merge "$WORK/jobrun/mnt/results/"shard-*.jsonl >"$WORK/out" 2>>"$WORK/err" && cmp -s "$WORK/out" "$WORK/sweep-all.jsonl"; then
  ok "sweep --emit-job: its 3 pods, played from the ConfigMap, write shards that merge into the single run"
else
  fail "sweep --emit-job: the played Job's shards do not merge into the single run"
fi
# A spec whose paths climb out of its directory, and results on stdout (kubectl logs).
mkdir -p "$WORK/proj/specs"
cp -r "$EX/sweep/cluster" "$WORK/proj/cluster"
printf 'apiVersion: kpsim.io/v1alpha1\nkind: Sweep\nmetadata: {name: up}\nspec:\n  inputs: [{name: c, paths: [../cluster/]}]\n  seeds: [1, 2, 3]\n  overlays: [{name: none}, {name: more, scale: [{kind: Deployment, name: shop/web, replicas: 8}]}]\n' >"$WORK/proj/specs/up.yaml"
run sweep "$WORK/proj/specs/up.yaml"; cp "$WORK/out" "$WORK/up-all.jsonl"
expect_rc "sweep --emit-job, paths above the spec" 0 sweep "$WORK/proj/specs/up.yaml" --emit-job --image kpsim --shards 4 --parallelism 2
cp "$WORK/out" "$WORK/up-job.yaml"
if grep -q '"/sweep/specs/up.yaml"' "$WORK/up-job.yaml" && grep -q 'parallelism: 2' "$WORK/up-job.yaml" && grep -q '"--quiet"' "$WORK/up-job.yaml" &&
   { [ "$HAVE_PYYAML" -eq 0 ] || { python3 "$SRC/tests/cli/run_sweep_job.py" "$WORK/up-job.yaml" "$KPSIM" "$WORK/uprun" >/dev/null 2>"$WORK/err" &&
   cat "$WORK/uprun/"log-*.txt | "$KPSIM" sweep merge - >"$WORK/out" 2>>"$WORK/err" && cmp -s "$WORK/out" "$WORK/up-all.jsonl"; }; }; then
  if [ "$HAVE_PYYAML" -eq 1 ]; then
    ok "sweep --emit-job: ../ paths laid out below /sweep, the pods' logs merge into the single run"
  else
    ok "sweep --emit-job: ../ paths laid out below /sweep (grepped; the Job not played)"
  fi
else
  fail "sweep --emit-job with ../ paths"
fi
head -c 1100000 /dev/zero | tr '\0' '#' >"$WORK/proj/cluster/big.yaml"
usage "sweep --emit-job past the ConfigMap limit" sweep "$WORK/proj/specs/up.yaml" --emit-job --image kpsim
if grep -q "bake them into the image instead (copy $WORK/proj, which the spec's ../ paths climb to, into it, keeping its layout" "$WORK/err"; then ok "sweep --emit-job: too big, says to bake in the directory the ../ paths climb to"; else fail "sweep --emit-job size message: $(cat "$WORK/err")"; fi
# simulate skips a Sweep spec it meets in a directory, with a warning.
expect_rc "simulate a directory holding a Sweep spec" 0 simulate -o json "$WORK/sw/"
if grep -q "SweepSpec" "$WORK/err"; then ok "simulate: a Sweep spec skipped with a SweepSpec warning"; else fail "simulate: no SweepSpec warning"; fi

# sweep --emit-job makes the checks sweep makes; merge -o text survives a line without figures.
mkdir -p "$WORK/ej"
cat > "$WORK/ej/bad.yaml" <<'EOF'
apiVersion: kpsim.io/v1alpha1
kind: Sweep
metadata: {name: bad}
spec:
  inputs: [{name: a, paths: [a.yaml]}]
  profiles: [fancy]
EOF
cp "$EX/cascade.yaml" "$WORK/ej/a.yaml"
expect_rc "sweep --emit-job refuses a spec sweep refuses" 2 sweep --emit-job --image kpsim:test "$WORK/ej/bad.yaml"
printf '{"run":0,"runs":1,"status":"ok"}\n' > "$WORK/ej/nodisr.jsonl"
expect_rc "sweep merge -o text of a line without disruption" 0 sweep merge -o text "$WORK/ej/nodisr.jsonl"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
