#!/bin/bash
# Runs two (or more) kpsim_bench binaries in turn on the same benchmarks and prints, per binary and
# benchmark, the minimum and the median of the iterations' wall times (ms). On a noisy machine
# only pairs measured back to back compare; run several rounds.
#
#   tools/bench_pairs.sh FILTER ROUNDS BENCH_BINARY...
#   tools/bench_pairs.sh 'Simulate(Default|Book)/preemption-basic-5000' 3 /tmp/old/kpsim_bench build/bench/kpsim_bench
set -euo pipefail
filter=$1
rounds=$2
shift 2
for round in $(seq 1 "$rounds"); do
  for bin in "$@"; do
    "$bin" --benchmark_filter="$filter" --benchmark_repetitions=8 --benchmark_min_time=0.05 \
      --benchmark_format=json 2>/dev/null | BIN="$bin" ROUND="$round" python3 -c '
import json, os, statistics, sys
runs = {}
for b in json.load(sys.stdin)["benchmarks"]:
    if b.get("run_type") == "iteration":
        runs.setdefault(b["run_name"], []).append(b["real_time"])
for name, times in runs.items():
    print("round %s  %-40s  %-45s  min %7.1f  median %7.1f" % (os.environ["ROUND"], os.environ["BIN"][-40:], name, min(times), statistics.median(times)))
'
  done
done
