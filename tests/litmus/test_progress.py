#!/usr/bin/env python3
"""The project's progress litmus tests (tests/litmus/progress/) through
`scanlab deadlock --litmus --json`: for every model and both fairness
conditions, the verdict equals the one the test states ("terminates:
obe=yes lobe=no ...", and "terminates strong: ..." where strong fairness
gives other verdicts), derived in its "why" lines from the models'
definitions (docs/deadlock.md, "Progress litmus tests"). Then the same tests
under an analysis that ignores cycles of changing states
(SCANLAB_TEST_WEAKEN_PROGRESS=cycles, for tests only) and under one that
ignores fairness (=fairness: every cycle allowed) and under a search whose
states leave registers out (=registers): every test marked "catches:
cycles" (or fairness, registers) must change a verdict, so the set can tell
a search that misses livelocks, gets fairness wrong or takes a counting
loop for a spin from a right one.

With --table, prints the agreement table of docs/deadlock.md instead."""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import sys

MODELS = ["obe", "lobe", "hsa", "hsa+obe", "fair"]
scanlab = os.environ["SCANLAB"]
table = "--table" in sys.argv[1:]
folder = [a for a in sys.argv[1:] if a != "--table"][0]
files = sorted(glob.glob(os.path.join(folder, "*.litmus")))
assert len(files) >= 10, "the progress test set is missing"


def stated(path):
    """{fairness: {model: terminates}} as the test states them ("terminates:",
    and "terminates strong:" where strong fairness differs), and what it catches."""
    text = open(path).read()
    exp = {}
    for fair, key in (("weak", "terminates"), ("strong", "terminates strong")):
        line = re.search(r'"%s: ([^"]*)"' % key, text)
        if line is None and fair == "strong":
            exp["strong"] = exp["weak"]
            continue
        got = dict(re.findall(r"([a-z+]+)=(yes|no)", line.group(1)))
        assert sorted(got) == sorted(MODELS), "%s: a verdict for every model" % path
        exp[fair] = {m: got[m] == "yes" for m in MODELS}
    for m in MODELS:
        assert re.search(r'"why %s: ' % re.escape(m), text), "%s: no reason stated for %s" % (path, m)
    if exp["strong"] != exp["weak"]:
        assert re.search(r'"why strong: ', text), "%s: no reason stated for strong fairness" % path
    return exp, re.findall(r'"catches: (\w+)"', text)


def run(env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    p = subprocess.run([scanlab, "deadlock", "--litmus", "--json"] + files, capture_output=True, text=True, env=env)
    assert p.returncode == 0, "scanlab deadlock --litmus exited %d: %s" % (p.returncode, p.stderr)
    return {r["file"]: r for r in json.loads(p.stdout)["results"]}


failures = []
right = run({})
if table:
    print("| test | threads | states | expected (weak): obe / lobe / hsa / hsa+obe / fair | scanlab (weak) "
          "| expected (strong) | scanlab (strong) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
for f in files:
    exp, _ = stated(f)
    r = right[f]
    if not r["answered"]:
        failures.append("%s: no answer (%s)" % (f, r["why"]))
        continue
    got = {fair: [r["models"][m][fair]["terminates"] for m in MODELS] for fair in ("weak", "strong")}
    for fair in ("weak", "strong"):
        for m, g in zip(MODELS, got[fair]):
            if g != exp[fair][m]:
                failures.append("%s: %s, %s fairness: terminates=%s, the test states %s" % (f, m, fair, g,
                                                                                            exp[fair][m]))
            tr = r["models"][m][fair]["trace"]
            if g == (tr is not None) or (tr is not None and (not tr["cycle"] or
                                                            tr["cycle_turns"] != len(tr["cycle"]))):
                failures.append("%s: %s, %s fairness: a trace exactly when it may not terminate" % (f, m, fair))
    if table:
        yn = lambda v: " / ".join("yes" if x else "**no**" for x in v)
        print("| %s | %d | %d | %s | %s | %s | %s |" % (r["name"], r["threads"], r["states"],
              yn([exp["weak"][m] for m in MODELS]), yn(got["weak"]), yn([exp["strong"][m] for m in MODELS]),
              yn(got["strong"])))
agree = sum(all(right[f]["answered"] and right[f]["models"][m][fair]["terminates"] == stated(f)[0][fair][m]
                for m in MODELS for fair in ("weak", "strong")) for f in files)
if not table:
    print("%d progress tests, %d agree on every model and fairness" % (len(files), agree))

# A sanitizer build (SCANLAB_TEST_SANITIZED) searches without snapshots,
# a process per choice, many times slower: it checks the verdicts above
# and the bad input below, and leaves the weakened analyses (three more
# searches of every test, the same code) to the plain build.
sanitized = bool(os.environ.get("SCANLAB_TEST_SANITIZED"))
for weak in () if sanitized else ("cycles", "fairness", "registers"):
    wrong = run({"SCANLAB_TEST_WEAKEN_PROGRESS": weak})
    marked = [f for f in files if weak in stated(f)[1]]
    if not marked:
        failures.append("no test is marked to catch an analysis that ignores %s" % weak)
    for f in marked:
        if all(wrong[f]["models"][m][fair]["terminates"] == right[f]["models"][m][fair]["terminates"]
               for m in MODELS for fair in ("weak", "strong")):
            failures.append("%s: the analysis that ignores %s gives the same verdicts" % (f, weak))
    caught = sum(any(wrong[f]["models"][m][fair]["terminates"] != stated(f)[0][fair][m]
                     for m in MODELS for fair in ("weak", "strong")) for f in files)
    if not table:
        print("analysis ignoring %s: %d tests disagree with what they state" % (weak, caught))

# bad input: one line on stderr naming the command, exit 2, nothing on stdout
tmp = tempfile.mkdtemp(prefix="test_progress.")
bad_tests = {
    "junk": "not a test\n",
    "shared-cta": "PTX S\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 ;\n"
                  "exists (x == 1)\n",
    "plain-spin": "PTX P\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n L: | st.relaxed.gpu x, 1 ;\n"
                  " ld r0, x | ;\n beq r0, 0, L | ;\nexists (x == 1)\n",
    "local-loop": "PTX E\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n L: | st.relaxed.gpu x, 1 ;\n"
                  " add r0, r0, 1 | ;\n goto L | ;\nexists (x == 1)\n",
    "plain-store": "PTX Q\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld r0, 1 | st x, 1 ;\nexists (x == 1)\n",
    "nine-threads": "PTX N\n{ x=0; }\n " + " | ".join("P%d@cta %d,gpu 0" % (k, k) for k in range(9)) +
                    " ;\nexists (x == 1)\n",
    # Sorensen et al.'s format (tests/litmus/published/progress), wrong in each way it can be
    "alloy-operands": "THREAD0\natomic_store(0)\n",
    "alloy-unknown": "THREAD0\natomic_load(0,1)\n",
    "alloy-label": "THREAD0\natomic_chk_branch(0,0,2)\n",
    "alloy-order": "THREAD0\natomic_store(0,1)\nTHREAD2\natomic_store(0,1)\n",
    "alloy-address": "THREAD0\natomic_store(16,1)\n",
    "alloy-value": "THREAD0\natomic_store(0,-1)\n",
}
for name, text in bad_tests.items():
    open(os.path.join(tmp, name + ".litmus"), "w").write(text)
good = files[0]
bad_cmds = [
    ["--litmus"],
    ["--litmus", "--model", "unfair", good],
    ["--litmus", "--fairness", "sometimes", good],
    ["--litmus", "--budget", "0", good],
    ["--litmus", "--frobnicate", good],
    ["--litmus", os.path.join(tmp, "missing.litmus")],
    ["--litmus", "--json=" + os.path.join(tmp, "no", "such", "dir.json"), good],
] + [["--litmus", good, os.path.join(tmp, n + ".litmus")] for n in bad_tests]
for args in bad_cmds:
    p = subprocess.run([scanlab, "deadlock"] + args, capture_output=True, text=True)
    lines = p.stderr.strip().splitlines()
    if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith("scanlab: deadlock: ") or p.stdout:
        failures.append("deadlock %s: exit %d, stderr %r, stdout %r (one line and exit 2 wanted)"
                        % (" ".join(args), p.returncode, p.stderr, p.stdout[:80]))
# --json=FILE: the whole document under that name, nothing else left
doc = os.path.join(tmp, "out.json")
p = subprocess.run([scanlab, "deadlock", "--litmus", "--model", "hsa", "--fairness", "weak", "--json=" + doc, good],
                   capture_output=True, text=True)
written = json.load(open(doc)) if os.path.exists(doc) else None
if p.returncode != 0 or not written or list(written["results"][0]["models"]) != ["hsa"] or \
        list(written["results"][0]["models"]["hsa"]) != ["weak"] or os.listdir(tmp).count("out.json.part"):
    failures.append("--json=FILE with --model hsa --fairness weak: exit %d, %r" % (p.returncode, written))
shutil.rmtree(tmp)

for line in failures:
    print("FAIL", line)
sys.exit(1 if failures else 0)
