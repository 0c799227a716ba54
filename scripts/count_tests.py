"""Count test cases from meson's JUnit log (one <testcase> per GoogleTest case).

A test binary that failed without a failing case in the log (a crash, a timeout, a
non-gtest script) counts as one failure, so nothing is lost.
Prints "N passed, N failed" (", N skipped" when any were skipped).
"""
import json
import sys
import xml.etree.ElementTree as ET

junit, testlog = sys.argv[1], sys.argv[2]
passed = failed = skipped = 0
failed_by_test = {}
for suite in ET.parse(junit).getroot().iter("testsuite"):
    test_name = ".".join(suite.get("name", "").split(".")[:2])
    for case in suite.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
            failed_by_test[test_name] = failed_by_test.get(test_name, 0) + 1
        elif case.find("skipped") is not None or case.get("status") == "notrun":
            skipped += 1
        else:
            passed += 1
with open(testlog) as f:
    for line in f:
        result = json.loads(line)
        if result["result"] in ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS"):
            name = "rocetb." + result["name"].split(":")[-1].strip()
            if not any(k.startswith(name) for k in failed_by_test):
                failed += 1
line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
