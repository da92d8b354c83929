#!/usr/bin/env bash
# The whole test suite: declarations, rule tables, unit and API tests, then the browser tests
# against the built portal and a real server on a fresh database.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's chromium for the browser tests, poppler-utils to render the PDFs they download, and the
# DejaVu fonts the PDFs are written in (Vietnamese needs more than the PDF standard fonts).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing ${missing[*]} for the browser tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "The browser tests need: ${missing[*]} (apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi

mkdir -p test-results
npm run --silent check
npm run --silent lint
npm run --silent rules -- test > test-results/rules.json
npm run --silent build

status=0
# each run's output is kept too (test-results/*.log): an error outside any test (an unhandled
# rejection) fails the run without failing a test, and is told again at the end
for project in unit e2e; do
  set +e
  npx vitest run --project "$project" --reporter=default --reporter=json --outputFile.json="test-results/$project.json" 2>&1 | tee "test-results/$project.log"
  code=${PIPESTATUS[0]}
  set -e
  [ "$code" = 0 ] || status=$code
done

# One closing line for the whole run.
node -e '
const fs = require("fs");
let passed = 0, failed = 0, skipped = 0;
for (const f of ["test-results/unit.json", "test-results/e2e.json"]) {
  if (!fs.existsSync(f)) { failed++; continue; }
  const r = JSON.parse(fs.readFileSync(f, "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests || 0);
  if (r.numTotalTests === 0) failed++;
  // the failures again at the very end, where a log cut to its tail still shows them
  for (const file of r.testResults)
    for (const t of file.assertionResults)
      if (t.status === "failed")
        console.log(`FAILED ${file.name.replace(process.cwd() + "/", "")} > ${t.fullName}\n  ${String((t.failureMessages || [])[0] || "").split("\n").slice(0, 6).join("\n  ")}`);
  if (r.numFailedTestSuites && !r.numFailedTests)
    for (const file of r.testResults) if (file.status === "failed") console.log(`FAILED ${file.name.replace(process.cwd() + "/", "")}: ${String(file.message || "").split("\n")[0]}`);
}
console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
'
# errors outside the tests (vitest fails the run for them): their block again, at the end
for project in unit e2e; do
  f="test-results/$project.log"
  [ -f "$f" ] && grep -q "Unhandled" "$f" && { echo "ERRORS OUTSIDE THE TESTS ($project):"; sed 's/\x1b\[[0-9;]*m//g' "$f" | sed -n '/Unhandled/,/^ *Test Files/p' | head -80; }
done
exit $status
