# shellcheck shell=bash
# Sourced by scripts/build.sh and the benchmark scripts: warn_stale_profile BUILD_DIR says,
# on stderr, when BUILD_DIR's profile (scripts/train_profile.sh writes the commit it
# trained at into BUILD_DIR/.profile-trained) is older than the sources. A stale profile
# gives the same results, slower: on the 40 Gb/s incast a profile some sessions old cost
# 15% more instructions than a fresh one (README, Build).
warn_stale_profile() {
  local stamp=$1/.profile-trained trained head
  [ -s "$stamp" ] || return 0
  trained=$(cat "$stamp")
  head=$(git rev-parse HEAD 2>/dev/null) || return 0
  [ "$trained" = "$head" ] && return 0
  if [ -z "$(git diff --name-only "$trained" HEAD -- '*.cc' '*.h' '*.c' 2>/dev/null | head -1)" ] &&
     git cat-file -e "$trained^{commit}" 2>/dev/null; then
    return 0  # no source changed since
  fi
  echo "note: $1 was profiled at ${trained:0:12}; the sources have changed since:" \
       "rm $stamp and build again to retrain (the results are the same, the speed is not)" >&2
}
