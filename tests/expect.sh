# Sourced by the shell tests of scripts: expect NAME CODE PATTERN -- command... runs the
# command and counts a failure in $fails unless it exits with CODE and its output (stdout
# and stderr) matches the extended regular expression PATTERN.
fails=0
expect() {
  local name=$1 code=$2 pattern=$3
  shift 4
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" != "$code" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: exit $rc (expected $code), output:"; echo "$out"; fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
}
