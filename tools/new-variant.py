#!/usr/bin/env python3
"""Scaffolds a kernel variant: tools/new-variant.py NAME --like ALGO [--root DIR]

Writes, in the source tree at DIR (default: the tree this script is in):

  cuda/<level>/<stem>_tmpl.cuh   the kernel, from the pattern of ALGO's level:
                                 block   a block scan under the hierarchical driver
                                 reduce  a block reduction under reduce_driver.cuh
                                 device  ALGO's own device-level file (a thin
                                         configuration of cuda/device/'s protocol)
  cuda/kernels.def               the variant's line
  cuda/depth.h, cuda/depth.c     its addition-tree depth function
  verify/report/closed_form.c    an empty closed form (block scans)

Each written kernel is a correct scan or reduction as it stands, so the tree
builds and `scanlab verify --algo NAME` passes before anything is changed;
the script then says what to fill in (docs/dialect.md, "Adding a variant").
NAME is the command-line name (letters, digits, '-'); the file stem is NAME
with '-' as '_'. Exit status 0 when written, 2 for bad usage (nothing is
written then).
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(HERE, "variant_templates")
KERNEL_LINE = re.compile(r'^SL_KERNEL\((\w+),\s*(\w+),\s*(\w+),\s*"([^"]+)",\s*(\w+),')


def fail(msg):
    print("scanlab new-variant: " + msg, file=sys.stderr)
    sys.exit(2)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def catalogue(root):
    """The lines of cuda/kernels.def: name -> (stem, level, kind, depth)."""
    out = {}
    for line in read(os.path.join(root, "cuda", "kernels.def")).splitlines():
        m = KERNEL_LINE.match(line)
        if m:
            out[m.group(4)] = (m.group(1), m.group(2), m.group(3), m.group(5))
    return out


def block_kernel(root, stem, name, like):
    text = read(os.path.join(TEMPLATES, "block_scan.cuh.in"))
    return text.replace("@STEM@", stem).replace("@NAME@", name).replace("@LIKE@", like)


def reduce_kernel(root, stem, name, like):
    text = read(os.path.join(TEMPLATES, "reduce.cuh.in"))
    return text.replace("@STEM@", stem).replace("@NAME@", name).replace("@LIKE@", like)


def device_kernel(root, stem, name, like, like_stem):
    """ALGO's own file with its host driver renamed: the device-level scans
    are configurations of cuda/device/'s shared tile code and protocol."""
    text = read(os.path.join(root, "cuda", "device", like_stem + "_tmpl.cuh"))
    driver = "SL_HOST sl_status SL_KN(%s)(" % like_stem
    if driver not in text:
        fail("--like %s: its file has no host driver named SL_KN(%s)" % (like, like_stem))
    head = ("/* %s: a device-level scan (made by tools/new-variant.py from %s's file).\n"
            " * FILL IN: what it changes, and why. %s's own comments follow. */\n" % (name, like, like))
    return head + text.replace(driver, "SL_HOST sl_status SL_KN(%s)(" % stem)


def depth_code(stem, level, like_depth):
    """The declaration and the definition of sl_depth_<stem>."""
    decl = ("\n/* %s (tools/new-variant.py): FILL IN the addition-tree depth of output i. */\n"
            "size_t sl_depth_%s(const sl_scan_args *a, size_t i);\n" % (stem, stem))
    if level == "block":
        body = ("    /* FILL IN: d, the depth of one section scan (here Kogge-Stone's, ceil(log2 B)) */\n"
                "    (void)i;\n"
                "    const size_t b = block_or(a, SL_MAX_BLOCK_THREADS);\n"
                "    return hier_depth(a->n, b, ceil_log2(b));\n")
    elif like_depth != "NULL":
        body = "    /* FILL IN: the variant's own depth, if it differs */\n    return %s(a, i);\n" % like_depth
    else:
        body = "    /* FILL IN: the depth of output i (n: the sequential bound) */\n    (void)i;\n    return a->n;\n"
    defn = "\nsize_t sl_depth_%s(const sl_scan_args *a, size_t i)\n{\n%s}\n" % (stem, body)
    return decl, defn


def closed_form_entry(name):
    return ('    /* %s (tools/new-variant.py): FILL IN the functions and the texts; an entry\n'
            '     * without block_for is no closed form yet (closed_form_of skips it). */\n'
            '    {"%s", "FILL IN: the configuration the forms are for", NULL, NULL, NULL, NULL, NULL,\n'
            '     "", "", "", ""},\n' % (name, name))


def insert_before(text, marker, addition, what):
    k = text.find(marker)
    if k < 0:
        fail("cannot find %s to extend" % what)
    return text[:k] + addition + text[k:]


def main():
    ap = argparse.ArgumentParser(prog="tools/new-variant.py", description=__doc__.split("\n")[0])
    ap.add_argument("name", help="the variant's command-line name, e.g. my-scan")
    ap.add_argument("--like", required=True, help="the catalogue algorithm whose pattern to start from")
    ap.add_argument("--root", default=os.path.dirname(HERE), help="the source tree (default: this one)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not os.path.isfile(os.path.join(root, "cuda", "kernels.def")):
        fail("--root %s: not a scanlab source tree (no cuda/kernels.def)" % root)
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", args.name) or len(args.name) > 40:
        fail("'%s': a name is lower-case letters and digits joined by '-', starting with a letter, at most "
             "40 characters" % args.name)
    cat = catalogue(root)
    stem = args.name.replace("-", "_")
    if args.name in cat or any(v[0] == stem for v in cat.values()):
        fail("'%s' is in cuda/kernels.def already" % args.name)
    if args.like not in cat:
        fail("--like '%s' is not in cuda/kernels.def (valid: %s)" % (args.like, ", ".join(sorted(cat))))
    like_stem, level, kind, like_depth = cat[args.like]
    if level == "block":
        kernel = block_kernel(root, stem, args.name, args.like)
    elif level == "reduce":
        kernel = reduce_kernel(root, stem, args.name, args.like)
    elif level == "device":
        kernel = device_kernel(root, stem, args.name, args.like, like_stem)
    else:
        fail("--like %s: its level '%s' has no template (block, reduce and device scans have)" % (args.like, level))
    kfile = os.path.join(root, "cuda", level, stem + "_tmpl.cuh")
    if os.path.exists(kfile):
        fail("%s exists already" % os.path.relpath(kfile, root))

    # Everything is computed before anything is written.
    decl, defn = depth_code(stem, level, like_depth)
    depth_h = read(os.path.join(root, "cuda", "depth.h"))
    depth_h = insert_before(depth_h, "\n#endif", decl, "the end of cuda/depth.h")
    depth_c = read(os.path.join(root, "cuda", "depth.c")).rstrip("\n") + "\n" + defn
    kdef = read(os.path.join(root, "cuda", "kernels.def")).rstrip("\n") + "\n"
    kdef += 'SL_KERNEL(%s, %s, %s, "%s", sl_depth_%s, "FILL IN: one-line summary (made like %s)")\n' % (
        stem, level, kind, args.name, stem, args.like)
    cf_path = os.path.join(root, "verify", "report", "closed_form.c")
    cf = read(cf_path)
    if level == "block":
        start = cf.find("static const closed_form forms[] = {")
        end = cf.find("\n};\n", start) + 1 if start >= 0 else 0
        if end <= 0:
            fail("cannot find the table of closed forms in verify/report/closed_form.c to extend")
        cf = cf[:end] + closed_form_entry(args.name) + cf[end:]

    written = [(kfile, kernel), (os.path.join(root, "cuda", "kernels.def"), kdef),
               (os.path.join(root, "cuda", "depth.h"), depth_h), (os.path.join(root, "cuda", "depth.c"), depth_c)]
    if level == "block":
        written.append((cf_path, cf))
    for path, text in written:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    rel = os.path.relpath(kfile, root)
    print("new variant %s (stem %s), made like %s (%s level):" % (args.name, stem, args.like, level))
    for path, _ in written:
        print("  wrote %s" % os.path.relpath(path, root))
    print("\nIt builds and passes as it stands (a correct %s). Fill in:" %
          ("block scan" if level == "block" else "reduction" if level == "reduce" else "copy of " + args.like))
    print("  1. %s: the lines marked FILL IN (the algorithm; keep earlier elements as OP's first operand)" % rel)
    print("  2. cuda/kernels.def: the summary that 'scanlab list' shows")
    print("  3. cuda/depth.c, sl_depth_%s: the addition-tree depth of output i (the float bound eta <= depth)"
          % stem)
    if level == "block":
        print("  4. verify/report/closed_form.c, the entry \"%s\": work, steps, barriers and bank conflicts of "
              "one section (tests/report/test_closed_forms.c checks filled-in forms against the simulator)"
              % args.name)
    print("\nThen: meson compile -C <build> && <build>/scanlab verify --algo %s --backend sim --both" % args.name)
    print("      <build>/scanlab simulate --algo %s --n 1024   (work, steps, barriers, bank conflicts)" % args.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
