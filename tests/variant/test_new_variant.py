#!/usr/bin/env python3
"""tools/new-variant.py end to end: in a copy of the source tree, scaffold a
block scan, a reduction and a device-level scan, build the copy, and check
that `scanlab list` names them and `scanlab verify` passes them on every
type and operator, across several sections (n up to 2049 over 1024-element
sections: the hierarchical driver's totals and add-back run). Refusals
(a name taken, an unknown --like) exit 2 and write nothing.

usage: test_new_variant.py SOURCE_ROOT [WORK_DIR]
"""
import os
import shutil
import subprocess
import sys
import tempfile

VARIANTS = [("my-scan", "kogge-stone", "cuda/block/my_scan_tmpl.cuh"),
            ("my-reduce", "reduce-shfl", "cuda/reduce/my_reduce_tmpl.cuh"),
            ("my-lookback", "lookback", "cuda/device/my_lookback_tmpl.cuh")]


def run(cmd, cwd=None, ok=(0,)):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in ok:
        sys.exit("FAIL: %s exited %d\nstdout:\n%s\nstderr:\n%s" % (" ".join(cmd), p.returncode, p.stdout[-4000:],
                                                                 p.stderr[-4000:]))
    return p


def copy_tree(src, dst):
    """The tracked files where git knows them, else the tree without build
    folders: the copy is what a checkout holds."""
    if os.path.isdir(os.path.join(src, ".git")) or os.path.isfile(os.path.join(src, ".git")):
        p = subprocess.run(["git", "-C", src, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           stdout=subprocess.PIPE)
        if p.returncode == 0 and p.stdout:
            for rel in p.stdout.decode().split("\0"):
                if rel and os.path.isfile(os.path.join(src, rel)):
                    os.makedirs(os.path.dirname(os.path.join(dst, rel)) or dst, exist_ok=True)
                    shutil.copy2(os.path.join(src, rel), os.path.join(dst, rel))
            return
    shutil.copytree(src, dst, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".git", "build*", "__pycache__"))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    src = os.path.abspath(sys.argv[1])
    base = tempfile.mkdtemp(prefix="scanlab-new-variant-", dir=sys.argv[2] if len(sys.argv) > 2 else None)
    tree, build = os.path.join(base, "src"), os.path.join(base, "build")
    try:
        copy_tree(src, tree)
        tool = os.path.join(tree, "tools", "new-variant.py")
        for name, like, kfile in VARIANTS:
            p = run([sys.executable, tool, name, "--like", like])
            for want in ("wrote " + kfile, "wrote cuda/kernels.def", "wrote cuda/depth.c", "Fill in:"):
                if want not in p.stdout:
                    sys.exit("FAIL: %s --like %s: no '%s' in:\n%s" % (name, like, want, p.stdout))
            if "FILL IN" not in open(os.path.join(tree, kfile)).read():
                sys.exit("FAIL: %s says nothing to fill in" % kfile)
        # refusals write nothing
        before = open(os.path.join(tree, "cuda", "kernels.def")).read()
        for args in (["my-scan", "--like", "kogge-stone"], ["other", "--like", "no-such-algo"],
                     ["Bad_Name", "--like", "kogge-stone"], ["other", "--like", "compact"]):
            p = run([sys.executable, tool] + args, ok=(2,))
            if not p.stderr.startswith("scanlab new-variant: ") or p.stderr.count("\n") != 1:
                sys.exit("FAIL: %s: wanted one line on stderr, got %r" % (args, p.stderr))
        if open(os.path.join(tree, "cuda", "kernels.def")).read() != before:
            sys.exit("FAIL: a refused scaffold changed cuda/kernels.def")
        if os.path.exists(os.path.join(tree, "cuda", "block", "other_tmpl.cuh")):
            sys.exit("FAIL: a refused scaffold wrote a kernel file")

        run(["meson", "setup", build, tree, "-Dcuda=disabled", "-Doptimization=0", "-Ddebug=false"])
        run(["ninja", "-C", build, "-j2", "scanlab"])
        scanlab = os.path.join(build, "scanlab")
        listing = run([scanlab, "list"]).stdout
        for name, _, _ in VARIANTS:
            if name not in listing:
                sys.exit("FAIL: scanlab list does not name %s" % name)
        p = run([scanlab, "verify", "--algo", ",".join(v[0] for v in VARIANTS), "--backend", "sim", "--type", "all",
                 "--op", "all", "--both", "--n", "0,1,33,1000,1024,2049", "--seed", "3"])
        if " 0 FAILED" not in p.stdout:
            sys.exit("FAIL: verify:\n" + p.stdout[-3000:])
        print("ok: scaffolded %s; built; listed; verify: %s" % (", ".join(v[0] for v in VARIANTS),
                                                              [line for line in p.stdout.splitlines()
                                                               if "FAILED" in line][-1].strip()))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
