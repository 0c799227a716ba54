# shellcheck shell=bash
# Sourced by scripts/build.sh and the benchmark scripts: warn_stale_profile BUILD_DIR says,
# on stderr, when BUILD_DIR's profile (scripts/train_profile.sh writes the commit it
# trained at into BUILD_DIR/.profile-trained) is older than the C and C++ sources as they
# are, uncommitted edits included. A stale profile gives the same results, slower: on the
# 40 Gb/s incast a profile some sessions old cost 15% more instructions than a fresh one
# (README, Build).
warn_stale_profile() {
  local stamp=$1/.profile-trained trained
  [ -s "$stamp" ] || return 0
  git rev-parse --git-dir >/dev/null 2>&1 || return 0  # not a clone: nothing to compare
  trained=$(cat "$stamp")
  # The sources as they are (uncommitted edits too) against the commit the profile saw.
  if git cat-file -e "$trained^{commit}" 2>/dev/null &&
     git diff --quiet "$trained" -- '*.cc' '*.h' '*.c' 2>/dev/null; then
    return 0
  fi
  echo "note: $1 was profiled at ${trained:0:12}; the sources have changed since:" \
       "rm $stamp and build again to retrain (the results are the same, the speed is not)" >&2
}
