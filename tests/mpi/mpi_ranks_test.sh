#!/usr/bin/env bash
# Virtual time across MPI ranks (lib/mpi, lib/testbed run_ranks.h): `mpirun -np 2 rocetb
# run` on leaf-spine, PFC storm and all-to-all scenarios writes the summary.json,
# flows.csv and queues.csv of one process, byte for byte, for 2 and 3 partitions; frames
# did cross between the ranks (run.json "mpi"); and what cannot run across ranks (or
# ranks that do not run the same scenario) is refused in one line.
#   usage: mpi_ranks_test.sh ROCETB SOURCE_ROOT
set -uo pipefail
rocetb=$1 root=$2
# shellcheck source=../expect.sh
source "$(dirname "$0")/../expect.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One machine: no ssh (plm isolated), shared memory between the ranks without the
# cross-process reads a container may forbid (single copy: none); as root in CI.
mpi=(mpirun --allow-run-as-root --mca plm isolated --mca btl self,vader --mca btl_vader_single_copy_mechanism none -np 2)
[ "$(nproc)" -ge 2 ] || mpi+=(--oversubscribe)
run_opts=(--no-plots --quiet)

same_results() {  # NAME SCENARIO PARTITIONS SETTINGS...
  local name=$1 scenario=$2 parts=$3
  shift 3
  local one="$out/$name.one" ranks="$out/$name.ranks$parts"
  [ -d "$one" ] || "$rocetb" run "$root/scenarios/$scenario" --out "$one" "${run_opts[@]}" "$@" >/dev/null 2>&1 ||
    { echo "FAIL $name: the one-process run failed"; fails=$((fails + 1)); return; }
  if ! "${mpi[@]}" "$rocetb" run "$root/scenarios/$scenario" --out "$ranks" "${run_opts[@]}" "$@" \
       --set run.partitions="$parts" >"$out/$name.log" 2>&1; then
    echo "FAIL $name: 2 ranks, $parts partitions:"; tail -5 "$out/$name.log"; fails=$((fails + 1)); return
  fi
  local f differ=0
  for f in summary.json flows.csv queues.csv; do
    cmp -s "$one/$f" "$ranks/$f" || { echo "FAIL $name: $f differs on 2 ranks, $parts partitions"; differ=1; }
  done
  local crossed
  crossed=$(/usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["mpi"]
print(m["ranks"], min(e["frames_received"] for e in m["each"]))' "$ranks/run.json")
  case "$crossed" in
    "2 0" | "") echo "FAIL $name: run.json mpi: $crossed (expected 2 ranks each receiving frames)"; differ=1 ;;
  esac
  if [ "$differ" = 0 ]; then echo "ok   $name: 2 ranks, $parts partitions: byte-identical ($crossed)"; else fails=$((fails + 1)); fi
}

same_results leafspine alltoall_leafspine.toml 2 --set run.duration=2ms
same_results leafspine alltoall_leafspine.toml 3 --set run.duration=2ms
same_results storm storm_leafspine.toml 2
same_results storm storm_leafspine.toml 3
same_results scale scale_alltoall_128.toml 2 --set run.duration=100us --set run.warmup=20us --set run.sample_interval=10us

expect "fewer partitions than ranks" 1 "run.partitions = 1: expected at least the 2 MPI ranks" -- \
  "${mpi[@]}" "$rocetb" run "$root/scenarios/alltoall_leafspine.toml" --out "$out/p1" "${run_opts[@]}"
expect "captures across ranks" 1 "--capture: not available across MPI ranks" -- \
  "${mpi[@]}" "$rocetb" run "$root/scenarios/alltoall_leafspine.toml" --out "$out/cap" "${run_opts[@]}" \
  --set run.partitions=2 --capture all
# mpirun's MPMD form: rank 1 gets another seed, as a machine with another copy would.
one=(mpirun --allow-run-as-root --mca plm isolated --mca btl self,vader --mca btl_vader_single_copy_mechanism none)
[ "$(nproc)" -ge 2 ] || one+=(--oversubscribe)
expect "ranks on different scenarios" 1 "MPI rank 1 runs rocetb .* \\(seed 2, .*: expected what rank 0 runs" -- \
  "${one[@]}" -np 1 "$rocetb" run "$root/scenarios/alltoall_leafspine.toml" --out "$out/seeds" "${run_opts[@]}" \
  --set run.partitions=2 --seed 1 : -np 1 "$rocetb" run "$root/scenarios/alltoall_leafspine.toml" \
  --out "$out/seeds" "${run_opts[@]}" --set run.partitions=2 --seed 2
expect "realtime across ranks" 2 'run.clock = "realtime": started by mpirun with several ranks' -- \
  "${mpi[@]}" "$rocetb" run "$root/scenarios/split_netns.toml" --out "$out/rt" "${run_opts[@]}"
expect "another command across ranks" 2 "frames: started by mpirun with several ranks: only .rocetb run." -- \
  "${mpi[@]}" "$rocetb" frames
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
