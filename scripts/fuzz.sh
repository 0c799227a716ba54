#!/usr/bin/env bash
# A libFuzzer campaign on one fuzz target for SECONDS, with AddressSanitizer and UBSan:
#   scripts/fuzz.sh TARGET SECONDS        TARGET: scenario, set, cdf, parser or capture
# Builds the target in build-fuzz/ (clang, -Dfuzz=true, sanitizers; the first build takes
# minutes), starts from the kept corpus tests/fuzz/corpus/TARGET/, and at the end merges
# into it only the new inputs that reach new code (libFuzzer -merge=1), so the corpus
# grows slowly and stays worth committing. A crash leaves its input in
# tests/fuzz/crashes/TARGET-crash-*; fix it and keep the input in the corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/fuzz.sh scenario|set|cdf|parser|capture SECONDS"
[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
target=$1
seconds=$2
case "$target" in
  scenario|set|cdf) binary="tests/fuzz/${target}_fuzz"; dict="tests/fuzz/dict/${target}.dict" ;;
  parser) binary="tests/wire/parser_fuzz"; dict="" ;;
  capture) binary="tests/analyze/capture_fuzz"; dict="" ;;
  *) echo "fuzz.sh: TARGET '$target': expected scenario, set, cdf, parser or capture" >&2; exit 2 ;;
esac
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] ||
  { echo "fuzz.sh: SECONDS '$seconds': expected a whole number above 0" >&2; exit 2; }
./scripts/install-deps.sh

build=build-fuzz
if [ ! -f "$build/build.ninja" ]; then
  # Every library is instrumented for coverage (fuzzer-no-link) and the sanitizers; only the
  # fuzz binaries link libFuzzer's main. Clang's warnings differ from GCC's: not fatal here.
  CC=clang CXX=clang++ meson setup "$build" --buildtype=debugoptimized -Dfuzz=true -Dwerror=false \
    -Db_sanitize=address,undefined -Db_lundef=false -Db_lto=false \
    -Dc_args=-fsanitize=fuzzer-no-link -Dcpp_args=-fsanitize=fuzzer-no-link >/dev/null
fi
nice -n 10 ninja -C "$build" "$binary"

corpus="tests/fuzz/corpus/$target"
crashes="tests/fuzz/crashes"
mkdir -p "$corpus" "$crashes"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
       -artifact_prefix="$crashes/$target-")
[ -n "$dict" ] && flags+=(-dict="$dict")
status=0
# New inputs go to $work; the kept corpus is read only.
"$build/$binary" "${flags[@]}" "$work" "$corpus" 2>&1 | tee "$work/log" | grep -E '^(#|stat::|==|SUMMARY)' | tail -12 ||
  status=$?
grep -q -E 'ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|runtime error' "$work/log" && status=1
before=$(ls "$corpus" | wc -l)
"$build/$binary" -merge=1 "$corpus" "$work" >/dev/null 2>&1 || true
echo "fuzz.sh: $target: $(ls "$corpus" | wc -l) inputs in $corpus ($before before)"
exit $status
