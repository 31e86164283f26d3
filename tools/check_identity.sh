#!/usr/bin/env bash
# Compares `kpsim simulate -o json` of two builds byte for byte on the examples (with the flags the
# README gives them) and on generated inputs; an engine optimisation must not change any decision.
#   tools/check_identity.sh REF_BINARY NEW_BINARY [EXTRA_INPUT.json ...]
# With REF_CACHE=DIR the reference outputs are kept in DIR and reused (the reference binary and the
# inputs must not change between runs).
# Extra inputs (e.g. tools/gen_realistic.py --nodes 3000, tools/gen_scheduler_perf.py
# preemption-basic) run with the default flags, with GenericWorkload on and with the sampled
# candidate search.
set -u
ref=$1 new=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 count=0

compare() {  # compare LABEL ARGS...
  local label=$1
  shift
  local rc_ref
  if [[ -n ${REF_CACHE:-} ]]; then
    local key
    key=$(printf '%s\n' "$@" | sha1sum | cut -c1-16)
    mkdir -p "$REF_CACHE"
    if [[ ! -f $REF_CACHE/$key.rc ]]; then
      "$ref" simulate -o json "$@" >"$REF_CACHE/$key.out" 2>"$REF_CACHE/$key.err"
      echo $? >"$REF_CACHE/$key.rc"
    fi
    cp "$REF_CACHE/$key.out" "$tmp/ref"
    cp "$REF_CACHE/$key.err" "$tmp/ref.err"
    rc_ref=$(cat "$REF_CACHE/$key.rc")
  else
    "$ref" simulate -o json "$@" >"$tmp/ref" 2>"$tmp/ref.err"
    rc_ref=$?
  fi
  "$new" simulate -o json "$@" >"$tmp/new" 2>"$tmp/new.err"
  local rc_new=$?
  count=$((count + 1))
  if [[ $rc_ref != "$rc_new" ]] || ! cmp -s "$tmp/ref" "$tmp/new" || ! cmp -s "$tmp/ref.err" "$tmp/new.err"; then
    echo "DIFFERS: $label (exit $rc_ref vs $rc_new)"
    fail=1
  fi
}

for f in "$root"/examples/*.yaml "$root"/examples/*.json; do
  compare "$f" "$f"
done
for f in "$root"/examples/book/*.yaml; do
  compare "$f --profile book" --profile book "$f"
  compare "$f" "$f"
done
for f in "$root"/examples/podgroups/*.yaml; do
  compare "$f" "$f"
  gates=$(sed -n 's/^# Flags: --feature-gates \([^ ]*\).*/\1/p' "$f" | head -1)
  [[ -n $gates ]] && compare "$f --feature-gates $gates" --feature-gates "$gates" "$f"
done
for f in "$@"; do
  compare "$f" "$f"
  compare "$f --feature-gates GenericWorkload=true" --feature-gates GenericWorkload=true "$f"
  compare "$f --candidate-sampling kubernetes --seed 7" --candidate-sampling kubernetes --seed 7 "$f"
done
echo "$count runs compared, $([[ $fail == 0 ]] && echo identical || echo 'SOME DIFFER')"
exit $fail
