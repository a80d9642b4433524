#!/usr/bin/env python3
"""The project's PTX litmus tests (tests/litmus/tests/) through `scanlab
litmus --json`: every verdict equals the one stated in the test. A test says
`expected:` (the PTX memory model's verdict) and, where the simulator's model
is known to differ, `model:` (its verdict and why; docs/memory-model.md lists
them). Then the same tests under a deliberately wrong model
(SCANLAB_TEST_WEAKEN_MODEL=fence: fences order nothing; =scope: every scope
is the system's): every test marked `catches: fence` (or scope) must change
its verdict, so the test set can tell a wrong model from the right one."""
import glob
import json
import os
import re
import subprocess
import sys

scanlab = os.environ["SCANLAB"]
folder = sys.argv[1]
files = sorted(glob.glob(os.path.join(folder, "*.litmus")))
assert len(files) >= 30, "the test set is missing"


def stated(path):
    text = open(path).read()
    exp = re.search(r'"expected: (\w+)', text).group(1)
    model = re.search(r'"model: (\w+)', text)
    catches = re.findall(r'"catches: (\w+)"', text)
    return exp, (model.group(1) if model else exp), catches


def stated_hangs(path):
    """`hangs: every` (no execution ends), `hangs: some`, or none stated
    (every execution ends)."""
    m = re.search(r'"hangs: (\w+)', open(path).read())
    return m.group(1) if m else "none"


def run(env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    p = subprocess.run([scanlab, "litmus", "--json"] + files, capture_output=True, text=True, env=env)
    assert p.returncode == 0, "scanlab litmus exited %d: %s" % (p.returncode, p.stderr)
    return {r["file"]: r for r in json.loads(p.stdout)["results"]}


failures = []
right = run({})
agree = 0
for f in files:
    exp, model, _ = stated(f)
    r = right[f]
    if r["verdict"] != model:
        failures.append("%s: %s, the test states %s" % (f, r["verdict"], model))
    agree += r["verdict"] == exp
    if r["bounded"] or r["stuck"] or r["capped"] or (r["executions"] == 0 and r["hangs"] == 0):
        failures.append("%s: not every execution explored" % f)
    hangs = "every" if r["executions"] == 0 and r["hangs"] else "some" if r["hangs"] else "none"
    if hangs != stated_hangs(f):
        failures.append("%s: %d executions end, %d hang; the test states hangs: %s"
                        % (f, r["executions"], r["hangs"], stated_hangs(f)))
print("%d tests, %d agree with the PTX model, %d known differences" % (len(files), agree, len(files) - agree))

for weak in ("fence", "scope"):
    wrong = run({"SCANLAB_TEST_WEAKEN_MODEL": weak})
    marked = [f for f in files if weak in stated(f)[2]]
    if not marked:
        failures.append("no test is marked to catch a model whose %s is wrong" % weak)
    for f in marked:
        if wrong[f]["verdict"] == right[f]["verdict"]:
            failures.append("%s: the model weakened at '%s' gives the same verdict" % (f, weak))
    caught = sum(wrong[f]["verdict"] != stated(f)[1] for f in files)
    print("weakened model (%s): %d tests change verdict" % (weak, caught))

for line in failures:
    print("FAIL", line)
sys.exit(1 if failures else 0)
