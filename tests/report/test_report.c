/* 'scanlab report' through the executable (its path is argv[1], the source
 * tree it was built from argv[2]): the quick
 * report is complete and consistent, bad usage exits 2, a failed section
 * leaves no completed directory, a missing gnuplot is only a note, and the
 * -o contract: the folder is claimed for the whole run, only the report's
 * own files are ever replaced, a symbolic link or the working directory is
 * refused, an interrupt leaves nothing behind; the recorded comparison
 * with the GPU shown from a small file, and its absence or damage said;
 * the litmus section's counts, and the GPU's litmus outcomes judged. */
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "verify/harness/algos.h"
#include "verify/report/report.h"
#include "json_valid.h"

static const char *scanlab;
static const char *source_root; /* argv[2]: the tree scanlab was built from */
static char seed_arg[32];
static char workdir[] = "/tmp/scanlab-report-test-XXXXXX";

enum { MAX_ARGS = 16, MAX_FILE = 1 << 24 };

/* The whole file, NUL-terminated, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(MAX_FILE + 1);
    size_t n = buf ? fread(buf, 1, MAX_FILE, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* Run scanlab with args (NULL-terminated) and the environment variable
 * env_name=env_value (when not NULL); stderr goes to *err. Returns the
 * exit status. */
/* The sections a test's reports run (SCANLAB_REPORT_ONLY), or NULL for
 * all: a test of the folder's handling runs only what it looks at. */
static const char *only_sections;

static int all_sections(void **state)
{
    (void)state;
    only_sections = NULL;
    return 0;
}

static int run(const char *const *args, const char *env_name, const char *env_value, char **err)
{
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)scanlab;
    for (; args[argc - 1] && argc <= MAX_ARGS; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    char errp[64];
    snprintf(errp, sizeof errp, "%s/stderr", workdir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *e = freopen(errp, "w", stderr);
        FILE *o = freopen("/dev/null", "w", stdout);
        if (!e || !o || chdir(workdir) != 0)
            _exit(127);
        if (env_name)
            setenv(env_name, env_value, 1);
        if (only_sections)
            setenv("SCANLAB_REPORT_ONLY", only_sections, 1);
        execv(scanlab, argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char *text = slurp(errp);
    assert_non_null(text);
    if (err)
        *err = text;
    else
        free(text);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* Start scanlab with args in the background, stderr into workdir/name;
 * env_name=env_value set when env_name is not NULL. */
static pid_t spawn(const char *const *args, const char *env_name, const char *env_value, const char *name)
{
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)scanlab;
    for (; args[argc - 1] && argc <= MAX_ARGS; argc++)
        argv[argc] = (char *)args[argc - 1];
    argv[argc] = NULL;
    char errp[128];
    snprintf(errp, sizeof errp, "%s/%s", workdir, name);
    unlink(errp); /* wait_for_text must not read an earlier run's words */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *e = freopen(errp, "w", stderr);
        FILE *o = freopen("/dev/null", "w", stdout);
        if (!e || !o || chdir(workdir) != 0)
            _exit(127);
        if (env_name)
            setenv(env_name, env_value, 1);
        if (only_sections)
            setenv("SCANLAB_REPORT_ONLY", only_sections, 1);
        execv(scanlab, argv);
        _exit(127);
    }
    return pid;
}

/* Wait until workdir/name, the stderr of child pid, contains text: fails
 * at once, with what the child said, when it ends without saying it, and
 * after three minutes of saying nothing (a loaded machine may be slow). */
static void wait_for_text(pid_t pid, const char *name, const char *text)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", workdir, name);
    struct timespec nap = {0, 10000000L};
    for (int i = 0; i < 18000; i++) {
        char *s = slurp(p);
        bool found = s && strstr(s, text);
        if (!found) {
            int status;
            if (waitpid(pid, &status, WNOHANG) == pid) {
                char *last = slurp(p); /* what it wrote before it ended */
                fail_msg("report ended (%s %d) before it said '%s'; it said: %s",
                         WIFEXITED(status) ? "exit status" : "signal",
                         WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), text, last ? last : "");
            }
        }
        free(s);
        if (found)
            return;
        nanosleep(&nap, NULL);
    }
    fail_msg("%s never said '%s'", name, text);
}

static void path_in(char *buf, size_t size, const char *dir, const char *file)
{
    snprintf(buf, size, "%s/%s/%s", workdir, dir, file);
}

static bool exists(const char *dir, const char *file)
{
    char p[512];
    path_in(p, sizeof p, dir, file);
    struct stat sb;
    return stat(p, &sb) == 0 && sb.st_size > 0;
}

static char *read_in(const char *dir, const char *file)
{
    char p[512];
    path_in(p, sizeof p, dir, file);
    char *s = slurp(p);
    if (!s)
        fail_msg("%s/%s is missing", dir, file);
    return s;
}

/* The first line of dir/<table>.csv equals header. */
static void check_header(const char *dir, const char *table, const char *header)
{
    char file[128];
    snprintf(file, sizeof file, "%s.csv", table);
    char *s = read_in(dir, file);
    size_t len = strcspn(s, "\n");
    if (len != strlen(header) || strncmp(s, header, len) != 0)
        fail_msg("%s: header '%.*s', expected '%s'", file, (int)len, s, header);
    free(s);
}

/* dir/report.md holds text */
static void md_has(const char *dir, const char *text)
{
    char *md = read_in(dir, "report.md");
    if (!strstr(md, text))
        fail_msg("%s/report.md lacks '%s'", dir, text);
    free(md);
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Remove dir (a report written by the tests: files and src/ only). */
static void remove_report(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/%s'", workdir, dir);
    assert_int_equal(system(cmd), 0);
}

static bool gnuplot_on_path(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* The brent-kung rows of work.csv that ran as one block match the closed
 * forms 2n - 2 - log2 n and 2 log2 n - 1 (computed here). */
static void check_brent_kung_counts(const char *csv)
{
    char *copy = strdup(csv);
    size_t checked = 0;
    for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[64];
        unsigned long long n, blocks, launches, work, steps;
        char block[32];
        if (sscanf(line, "%63[^,],%llu,%31[^,],%llu,%llu,%llu,%*[^,],%llu", name, &n, block, &blocks, &launches,
                   &work, &steps) != 7 || strcmp(name, "brent-kung") || blocks != 1)
            continue;
        unsigned long long lg = (unsigned long long)llround(log2((double)n));
        assert_int_equal(work, 2 * n - 2 - lg);
        assert_int_equal(steps, 2 * lg - 1);
        checked++;
    }
    free(copy);
    if (verify_find_algo("brent-kung", false))
        assert_true(checked > 0);
}

/* Every .json file of the report is valid JSON of valid UTF-8. */
static void check_json_files(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", workdir, dir);
    DIR *d = opendir(p);
    assert_non_null(d);
    size_t files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char *text = read_in(dir, e->d_name);
        size_t where;
        if (!json_valid(text, &where))
            fail_msg("%s/%s is not valid JSON at byte %zu: '%.40s'", dir, e->d_name, where, text + where);
        free(text);
        files++;
    }
    closedir(d);
    assert_true(files > 5);
}

/* The targets of the links in text (after each opener, up to closer). */
static void check_targets(const char *dir, const char *file, const char *text, const char *opener, char closer)
{
    size_t checked = 0;
    for (const char *p = strstr(text, opener); p; p = strstr(p, opener)) {
        p += strlen(opener);
        const char *end = strchr(p, closer);
        assert_non_null(end);
        char target[512];
        snprintf(target, sizeof target, "%.*s", (int)(end - p), p);
        p = end;
        if (target[0] == '#')
            continue;
        /* self-contained: relative, inside the folder, present */
        if (strstr(target, "://") || target[0] == '/' || strstr(target, ".."))
            fail_msg("%s/%s links outside the report: %s", dir, file, target);
        char path[1024];
        path_in(path, sizeof path, dir, target);
        struct stat sb;
        if (stat(path, &sb) != 0)
            fail_msg("%s/%s links to %s, which is not in the report", dir, file, target);
        checked++;
    }
    assert_true(checked > 0);
}

/* Every link and image of index.html and report.md stays in the folder. */
static void check_links(const char *dir)
{
    char *html = read_in(dir, "index.html"), *md = read_in(dir, "report.md");
    check_targets(dir, "index.html", html, "href=\"", '"');
    if (strstr(html, "src=\""))
        check_targets(dir, "index.html", html, "src=\"", '"');
    check_targets(dir, "report.md", md, "](", ')');
    free(html);
    free(md);
}

/* No entry of workdir starts with prefix. */
static bool no_entry_with_prefix(const char *prefix, char *found, size_t size)
{
    DIR *d = opendir(workdir);
    assert_non_null(d);
    bool none = true;
    for (struct dirent *e; (e = readdir(d));)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            snprintf(found, size, "%s", e->d_name);
            none = false;
        }
    closedir(d);
    return none;
}

static void test_quick_report(void **state)
{
    (void)state;
    const char *args[] = {"report", "--quick", "-o", "out", seed_arg, NULL};
    char *err;
    int rc = run(args, NULL, NULL, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    free(err);
    assert_true(exists("out", "index.html"));
    assert_true(exists("out", "report.md"));
    assert_true(exists("out", ".scanlab-report"));
    char *html = read_in("out", "index.html"), *md = read_in("out", "report.md");
    for (size_t i = 0; i < report_section_count; i++) {
        /* the user's kernel's section shows only with --kernel */
        const bool shown = strcmp(report_sections[i].name, "kernel") != 0;
        if ((strstr(html, report_sections[i].title) != NULL) != shown)
            fail_msg("index.html %s the section title '%s'", shown ? "lacks" : "has", report_sections[i].title);
        if ((strstr(md, report_sections[i].title) != NULL) != shown)
            fail_msg("report.md %s the section title '%s'", shown ? "lacks" : "has", report_sections[i].title);
    }
    assert_null(strstr(html, "INCOMPLETE"));
    assert_null(strstr(md, "INCOMPLETE"));
    assert_non_null(strstr(html, "</html>"));
    free(html);
    free(md);

    check_header("out", "catalogue", "algorithm,kind,backends,summary");
    check_header("out", "verify", "algorithm,backend,groups,cases,pass,skip,fail,max_eta,verdict,first_failure");
    check_header("out", "verify-groups",
                 "algorithm,backend,type,op,kind,cases,pass,skip,fail,max_eta,verdict,first_failure");
    static const char work_cols[] = "algorithm,n,block,blocks,launches,work,work_closed_form,steps,"
                                    "steps_closed_form,barriers,barriers_closed_form,closed_form";
    static const char bank_cols[] = "algorithm,type,n,block,shared_accesses,wavefronts,bank_conflicts,"
                                    "conflicts_closed_form,closed_form,conflicts_per_access";
    static const char site_cols[] = "algorithm,type,site,op,shared_accesses,wavefronts,bank_conflicts,worst_degree";
    check_header("out", "work", work_cols);
    check_header("out", "work-sizes", work_cols);
    check_header("out", "work-forms", "algorithm,assumes,work,steps,barriers");
    check_header("out", "banks", bank_cols);
    check_header("out", "banks-sizes", bank_cols);
    check_header("out", "banks-sites", site_cols);
    check_header("out", "banks-sites-all", site_cols);
    check_header("out", "accuracy-sizes", "algorithm,backend,n,seeds,max_eta,rms_eta,max_ulps,depth_bound,"
                                          "within_bound");
    check_header("out", "accuracy", "algorithm,backend,n,seeds,max_eta,rms_eta,max_ulps,depth_bound,within_bound");
    check_header("out", "errindex", "algorithm,backend,n,max_eta,median_eta,max_ulps,median_ulps,depth_bound");
    /* the error-by-index data: the figure's bins, column by column, and no
     * row per prefix */
    assert_false(exists("out", "errindex-per-index.csv"));
    char *bins = read_in("out", "errindex-bins.csv");
    assert_true(strncmp(bins, "index,", 6) == 0);
    assert_int_equal(count_lines(bins), 128 + 1);
    free(bins);
    char bins_json[512];
    path_in(bins_json, sizeof bins_json, "out", "errindex-bins.json");
    struct stat bs;
    assert_int_equal(stat(bins_json, &bs), 0);
    assert_true(bs.st_size < 200 * 1024);
    check_json_files("out");
    check_links("out");
    /* the litmus section: its table, and no GPU record is no failure */
    check_header("out", "litmus", "test,shape,threads,scopes,condition,verdict,expected,agrees,check,executions,"
                                  "seconds");
    char record[4096];
    snprintf(record, sizeof record, "%s/docs/data/litmus-h100.json", source_root);
    struct stat rs;
    if (stat(record, &rs) != 0)
        md_has("out", "The GPU campaign has not been recorded");
    /* kernel coverage, made by this run: every kernel of the table with a
     * sim backend, the total, and the unreached sites as path:line */
    check_header("out", "coverage", "kernel,sites,reached,percent,unreached,files");
    check_header("out", "coverage-unreached", "kernel,site,calls,reached_by");
    char *cov = read_in("out", "coverage.csv");
    assert_non_null(strstr(cov, "\nall kernels,"));
    if (verify_find_algo("blelloch", false))
        assert_non_null(strstr(cov, "\nblelloch,"));
    free(cov);
    char *miss = read_in("out", "coverage-unreached.csv");
    assert_non_null(strstr(miss, ",cuda/"));
    assert_null(strstr(miss, "../"));
    free(miss);
    /* one catalogue row per algorithm of the table */
    char *cat = read_in("out", "catalogue.csv");
    assert_int_equal(count_lines(cat), verify_algo_count + 1);
    free(cat);
    /* the simulator's counts against the closed forms: every fitting row
     * equal, and a run the form does not cover marked with the reason */
    char *work = read_in("out", "work-sizes.csv");
    check_brent_kung_counts(work);
    assert_null(strstr(work, "FAIL"));
    if (verify_find_algo("brent-kung-radix", false))
        assert_non_null(strstr(work, "brent-kung-radix,128,"));
    assert_non_null(strstr(work, ",n/a: n is not a power of the radix 4"));
    assert_non_null(strstr(work, ",equal\n"));
    free(work);
    char *banks = read_in("out", "banks-sizes.csv");
    assert_null(strstr(banks, "FAIL"));
    assert_non_null(strstr(banks, ",equal,"));
    free(banks);
    /* per call site: blelloch's tree loads conflict, with a repository path */
    char *sites = read_in("out", "banks-sites.csv");
    assert_non_null(strstr(sites, "blelloch,i32,cuda/block/blelloch_body.cuh:"));
    assert_null(strstr(sites, "../"));
    free(sites);
    /* every float error within its depth bound, and nothing failed */
    char *acc = read_in("out", "accuracy-sizes.csv");
    assert_null(strstr(acc, "FAIL"));
    assert_true(count_lines(acc) > 1);
    free(acc);
    char *ver = read_in("out", "verify.csv");
    assert_null(strstr(ver, ",FAIL,"));
    free(ver);
    char *json = read_in("out", "verify.json");
    assert_true(json[0] == '{' && strstr(json, "\"rows\":[") != NULL);
    free(json);
    if (gnuplot_on_path()) {
        static const char *const svgs[] = {"work-work.svg", "work-steps.svg", "work-per-element.svg",
                                           "work-tradeoff.svg", "banks.svg", "banks-sites.svg",
                                           "accuracy.svg", "errindex.svg"};
        for (size_t i = 0; i < sizeof svgs / sizeof svgs[0]; i++) {
            char *svg = read_in("out", svgs[i]);
            assert_non_null(strstr(svg, "<svg"));
            assert_non_null(strstr(svg, "</svg>"));
            free(svg);
        }
    }
    /* the teaching plots: work against steps per block scan, work per
     * element, runs on several blocks marked, the device-level panels
     * explained from their own runs */
    char *page = read_in("out", "index.html");
    assert_non_null(strstr(page, "Work against steps for every block-level scan"));
    assert_non_null(strstr(page, "Work per element against n, on a linear axis"));
    assert_non_null(strstr(page, "marks a run on more than one block or launch"));
    assert_non_null(strstr(page, "The device-level scans' panels: "));
    assert_non_null(strstr(page, "lookback: work "));
    free(page);
    /* the marker lists the files the report wrote */
    char *marker = read_in("out", ".scanlab-report");
    assert_non_null(strstr(marker, "\nindex.html\n"));
    assert_non_null(strstr(marker, "\nverify.csv\n"));
    free(marker);
    assert_false(exists("out", ".scanlab-report.lock"));
    /* a second run replaces the earlier report's files and nothing else: a
     * file of the user's stays, a file the earlier report listed and this
     * one does not write goes */
    char p[512];
    path_in(p, sizeof p, "out", "notes.txt");
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("mine\n", f);
    fclose(f);
    path_in(p, sizeof p, "out", "stale.csv");
    f = fopen(p, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    path_in(p, sizeof p, "out", ".scanlab-report");
    f = fopen(p, "a");
    assert_non_null(f);
    fputs("stale.csv\n../notes.txt\n", f);
    fclose(f);
    char *err2;
    rc = run(args, NULL, NULL, &err2);
    if (rc != 0)
        fail_msg("second run: exit %d: %s", rc, err2);
    free(err2);
    assert_true(exists("out", "index.html"));
    assert_true(exists("out", "notes.txt"));
    assert_false(exists("out", "stale.csv"));
    char tmp[256];
    assert_true(no_entry_with_prefix("out.tmp-", tmp, sizeof tmp));
    remove_report("out");
}

static void test_forced_failure(void **state)
{
    (void)state;
    only_sections = "catalogue,banks";
    const char *args[] = {"report", "--quick", "-o", "failed", seed_arg, NULL};
    char *err;
    assert_int_equal(run(args, "SCANLAB_REPORT_FAIL", "banks", &err), 1);
    assert_non_null(strstr(err, "section banks failed"));
    free(err);
    struct stat sb;
    char p[512];
    snprintf(p, sizeof p, "%s/failed", workdir);
    assert_int_not_equal(stat(p, &sb), 0); /* no completed directory */
    char tmp[256];
    assert_false(no_entry_with_prefix("failed.tmp-", tmp, sizeof tmp));
    char *html = read_in(tmp, "index.html"), *md = read_in(tmp, "report.md");
    assert_non_null(strstr(html, "INCOMPLETE: section banks failed"));
    assert_non_null(strstr(md, "INCOMPLETE: section banks failed"));
    assert_false(exists(tmp, ".scanlab-report"));
    free(html);
    free(md);
    remove_report(tmp);
}

static void test_without_gnuplot(void **state)
{
    (void)state;
    only_sections = "work,accuracy,coverage";
    const char *args[] = {"report", "--quick", "-o", "plain", seed_arg, NULL};
    /* gcovr's summary where coverage/run.sh puts it, relative to the
     * working directory: the report copies its numbers */
    char cov[1024];
    snprintf(cov, sizeof cov, "mkdir -p '%s/build-coverage' && printf '%%s' '{\"files\": ["
             "{\"branch_covered\": 7, \"branch_total\": 10, \"filename\": \"cuda/block/hier_driver.cuh\", "
             "\"line_covered\": 33, \"line_total\": 40}, "
             "{\"branch_covered\": 1, \"branch_total\": 2, \"filename\": \"model/sched.c\", "
             "\"line_covered\": 5, \"line_total\": 8}]}' > '%s/build-coverage/coverage.json'", workdir, workdir);
    assert_int_equal(system(cov), 0);
    char *err;
    int rc = run(args, "PATH", "/nonexistent", &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    assert_non_null(strstr(err, "gnuplot not found"));
    free(err);
    char *html = read_in("plain", "index.html");
    assert_non_null(strstr(html, "gnuplot was not found"));
    assert_null(strstr(html, "INCOMPLETE"));
    assert_null(strstr(html, ".svg\""));
    assert_null(strstr(html, "build-coverage/coverage/index.html\""));
    free(html);
    char *gcov = read_in("plain", "coverage-gcov.csv");
    assert_non_null(strstr(gcov, "cuda/block/hier_driver.cuh,33,40,82.5,7,10,70.0"));
    assert_null(strstr(gcov, "model/sched.c")); /* kernel sources only */
    free(gcov);
    char *folders = read_in("plain", "coverage-gcov-folders.csv");
    assert_non_null(strstr(folders, "model/,5,8,62.5,1,2,50.0"));
    free(folders);
    remove_report("build-coverage");
    assert_false(exists("plain", "accuracy.svg"));
    remove_report("plain");
}

static void test_bad_usage(void **state)
{
    (void)state;
    char *err;
    const char *unknown[] = {"report", "--frobnicate", NULL};
    assert_int_equal(run(unknown, NULL, NULL, &err), 2);
    assert_non_null(strstr(err, "unknown option"));
    free(err);
    const char *extra[] = {"report", "stray", NULL};
    assert_int_equal(run(extra, NULL, NULL, NULL), 2);
    const char *noval[] = {"report", "-o", NULL};
    assert_int_equal(run(noval, NULL, NULL, NULL), 2);
    const char *badseed[] = {"report", "--seed", "x1", NULL};
    assert_int_equal(run(badseed, NULL, NULL, NULL), 2);
    /* unwritable: the parent does not exist */
    const char *nodir[] = {"report", "--quick", "-o", "/nonexistent-dir/sub/report", NULL};
    assert_int_equal(run(nodir, NULL, NULL, &err), 2);
    assert_non_null(strstr(err, "cannot write"));
    free(err);
    /* a directory that is not a report is never replaced */
    char keep[512];
    snprintf(keep, sizeof keep, "%s/keep", workdir);
    assert_int_equal(mkdir(keep, 0755), 0);
    char file[600];
    snprintf(file, sizeof file, "%s/precious.txt", keep);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("keep me\n", f);
    fclose(f);
    const char *notreport[] = {"report", "--quick", "-o", "keep", NULL};
    assert_int_equal(run(notreport, NULL, NULL, &err), 2);
    assert_non_null(strstr(err, "not a scanlab report"));
    free(err);
    assert_true(exists("keep", "precious.txt"));
    char tmp[256];
    assert_true(no_entry_with_prefix("keep.tmp-", tmp, sizeof tmp));
    remove_report("keep");
    /* a file in the way */
    snprintf(file, sizeof file, "%s/afile", workdir);
    f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    const char *isfile[] = {"report", "-o", "afile", NULL};
    assert_int_equal(run(isfile, NULL, NULL, NULL), 2);
    unlink(file);
}

/* A folder name that is not UTF-8 (made in a Latin-1 locale): every JSON
 * file stays valid, the bytes written as \xNN. */
static void test_non_utf8_name(void **state)
{
    (void)state;
    only_sections = "catalogue,litmus";
    const char *name = "caf\xe9-\xff";
    const char *args[] = {"report", "--quick", "-o", name, seed_arg, NULL};
    char *err;
    int rc = run(args, NULL, NULL, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    free(err);
    check_json_files(name);
    char *index = read_in(name, "report.json");
    assert_non_null(strstr(index, "caf\\\\xE9-\\\\xFF"));
    free(index);
    char *html = read_in(name, "index.html");
    assert_non_null(strstr(html, "caf\\xE9-\\xFF"));
    /* the sections SCANLAB_REPORT_ONLY leaves out say so */
    assert_non_null(strstr(html, "Left out: SCANLAB_REPORT_ONLY=catalogue,litmus"));
    free(html);
    remove_report(name);
}

/* -o onto a symbolic link, the working directory or a parent of it is
 * refused before anything runs, and nothing is left behind. */
static void test_refused_targets(void **state)
{
    (void)state;
    char target[512], link[512];
    snprintf(target, sizeof target, "%s/real", workdir);
    snprintf(link, sizeof link, "%s/link", workdir);
    assert_int_equal(mkdir(target, 0755), 0);
    assert_int_equal(symlink("real", link), 0);
    static const char *const refused[] = {"link", "link/", ".", "./", "..", workdir};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *args[] = {"report", "--quick", "-o", refused[i], NULL};
        char *err;
        int rc = run(args, NULL, NULL, &err);
        if (rc != 2)
            fail_msg("-o %s: exit %d, expected 2: %s", refused[i], rc, err);
        assert_non_null(strstr(err, i < 2 ? "symbolic link" : "working directory"));
        free(err);
    }
    char tmp[256];
    assert_true(no_entry_with_prefix("link.tmp-", tmp, sizeof tmp));
    assert_true(no_entry_with_prefix("real.tmp-", tmp, sizeof tmp));
    assert_true(no_entry_with_prefix(".tmp-", tmp, sizeof tmp));
    assert_false(exists("real", ".scanlab-report.lock"));
    unlink(link);
    rmdir(target);
}

/* An interrupt leaves nothing the report wrote: not the staging folder,
 * not the claim, not the folder it created; a file the user put into the
 * claimed folder meanwhile stays. */
static void test_interrupt(void **state)
{
    (void)state;
    only_sections = "work,banks";
    static const int sigs[] = {SIGINT, SIGTERM};
    for (size_t k = 0; k < 2; k++) {
        const char *args[] = {"report", "--quick", "-o", "cut", seed_arg, NULL};
        pid_t pid = spawn(args, "SCANLAB_REPORT_HOLD", "banks", "stderr-cut");
        wait_for_text(pid, "stderr-cut", "holding before section banks");
        char tmp[256];
        assert_false(no_entry_with_prefix("cut.tmp-", tmp, sizeof tmp)); /* staging, with figures */
        assert_true(exists("cut", ".scanlab-report.lock"));
        if (k == 1) {
            char p[512];
            path_in(p, sizeof p, "cut", "precious.txt");
            FILE *f = fopen(p, "w");
            assert_non_null(f);
            fputs("keep me\n", f);
            fclose(f);
        }
        assert_int_equal(kill(pid, sigs[k]), 0);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status) && WTERMSIG(status) == sigs[k]);
        assert_true(no_entry_with_prefix("cut.tmp-", tmp, sizeof tmp));
        assert_false(exists("cut", ".scanlab-report.lock"));
        assert_false(exists("cut", "index.html"));
        char p[512];
        snprintf(p, sizeof p, "%s/cut", workdir);
        struct stat sb;
        if (k == 0) {
            assert_int_not_equal(stat(p, &sb), 0); /* the folder it created, gone */
        } else {
            assert_true(exists("cut", "precious.txt"));
            remove_report("cut");
        }
    }
}

/* The folder is the report's from the start: a file put there while the
 * report runs is kept, and a second report cannot take the folder. */
static void test_claim_held(void **state)
{
    (void)state;
    only_sections = "work";
    const char *args[] = {"report", "--quick", "-o", "held", seed_arg, NULL};
    pid_t pid = spawn(args, "SCANLAB_REPORT_HOLD", "work", "stderr-held");
    wait_for_text(pid, "stderr-held", "holding before section work");
    char p[512];
    path_in(p, sizeof p, "held", "mine.txt");
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("mine\n", f);
    fclose(f);
    char *err;
    assert_int_equal(run(args, NULL, NULL, &err), 2);
    assert_non_null(strstr(err, "another scanlab report"));
    free(err);
    assert_int_equal(kill(pid, SIGUSR1), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(exists("held", "index.html"));
    assert_true(exists("held", "mine.txt"));
    assert_false(exists("held", ".scanlab-report.lock"));
    remove_report("held");
}

/* workdir/name holds text (made or replaced). */
static void put_file(const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", workdir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A hostile earlier report: DIR/src is a link to a folder outside, the
 * marker lists src/victim.txt, ../outside/victim.txt and the old page.
 * Without gnuplot the report lands whole, the link stays a link (a file
 * of the user's) and the victim stays; with a gnuplot (a stand-in that
 * draws empty figures, so that the report writes src/) the user's src
 * stops the install before anything changed: the old page, the link and
 * the victim as they were, the report in the staging folder. */
static void test_marker_attack(void **state)
{
    (void)state;
    only_sections = "work"; /* a section with figures: it writes src/ */
    char p[512];
    snprintf(p, sizeof p, "%s/outside", workdir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/fakebin", workdir);
    assert_int_equal(mkdir(p, 0755), 0);
    put_file("fakebin/gnuplot", "#!/bin/sh\necho '<svg></svg>' > \"../$(basename \"$1\" .gp).svg\"\n");
    snprintf(p, sizeof p, "%s/fakebin/gnuplot", workdir);
    assert_int_equal(chmod(p, 0755), 0);
    char fake_path[600];
    snprintf(fake_path, sizeof fake_path, "%s/fakebin:/usr/bin:/bin", workdir);
    const char *args[] = {"report", "--quick", "-o", "atk", seed_arg, NULL};
    for (int gnuplot = 0; gnuplot < 2; gnuplot++) {
        snprintf(p, sizeof p, "%s/atk", workdir);
        assert_int_equal(mkdir(p, 0755), 0);
        put_file("outside/victim.txt", "victim\n");
        put_file("atk/.scanlab-report", "scanlab report: earlier\nsrc/victim.txt\n../outside/victim.txt\n"
                                        "index.html\n");
        put_file("atk/index.html", "old page\n");
        snprintf(p, sizeof p, "%s/atk/src", workdir);
        assert_int_equal(symlink("../outside", p), 0);
        char *err;
        int rc = run(args, "PATH", gnuplot ? fake_path : "/nonexistent", &err);
        char *victim = read_in("outside", "victim.txt");
        assert_string_equal(victim, "victim\n");
        free(victim);
        struct stat sb;
        assert_int_equal(lstat(p, &sb), 0);
        assert_true(S_ISLNK(sb.st_mode));
        char *page = read_in("atk", "index.html");
        char tmp[256];
        if (!gnuplot) {
            if (rc != 0)
                fail_msg("without gnuplot: exit %d: %s", rc, err);
            assert_non_null(strstr(page, "</html>"));
            char *marker = read_in("atk", ".scanlab-report");
            assert_null(strstr(marker, "victim"));
            free(marker);
            assert_true(no_entry_with_prefix("atk.tmp-", tmp, sizeof tmp));
        } else {
            if (rc != 1)
                fail_msg("with gnuplot: exit %d, expected 1: %s", rc, err);
            assert_non_null(strstr(err, "atk/src' is not a file of the earlier report"));
            assert_string_equal(page, "old page\n");
            assert_false(no_entry_with_prefix("atk.tmp-", tmp, sizeof tmp));
            char *staged = read_in(tmp, "index.html");
            assert_non_null(strstr(staged, "</html>"));
            free(staged);
            assert_true(exists(tmp, "work-work.svg"));
            remove_report(tmp);
        }
        free(page);
        free(err);
        remove_report("atk");
    }
    remove_report("outside");
    remove_report("fakebin");
}

/* One count row of a launch 0 at n = 2048; more: what follows measured. */
#define FID_ROW(algo, kernel, metric, pred, meas, more)                                                        \
    "{\"algo\": \"" algo "\", \"kernel\": \"" kernel "\", \"type\": \"i32\", \"n\": 2048, \"block\": 256, "      \
    "\"launch\": 0, \"metric\": \"" metric "\", \"predicted\": " #pred ", \"measured\": " #meas more "},\n"
/* A launch's six shared counts: the l1tex conflicts ld (with measured_own)
 * and st (exact), the l1tex wavefronts ld and st, and the SASS-attributed
 * wavefronts, equal to the prediction. */
#define FID_LAUNCH(algo, kernel, cld, cld_meas, cld_own, wld, wld_meas)                                        \
    FID_ROW(algo, kernel, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", cld, cld_meas,          \
            ", \"measured_own\": " #cld_own)                                                                   \
    FID_ROW(algo, kernel, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0, 0,                   \
            ", \"measured_own\": 0")                                                                           \
    FID_ROW(algo, kernel, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", wld, wld_meas, "")          \
    FID_ROW(algo, kernel, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 8, 8, "")                   \
    FID_ROW(algo, kernel, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", wld, wld, "")     \
    FID_ROW(algo, kernel, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 8, 8, "")
#define FID_TIME(algo, pred, meas)                                                                             \
    "{\"algo\": \"" algo "\", \"kernel\": \"t_i32_add\", \"type\": \"i32\", \"n\": 16777216, \"block\": 256, "  \
    "\"launch\": 0, \"metric\": \"gpu__time_duration.sum\", \"predicted\": " #pred ", \"measured\": " #meas       \
    ", \"bytes\": 2e8}"

/* A made-up comparison: launch a has its l1tex ld counts over by other
 * traffic and its own counts exact, launch b its own conflicts ld 4
 * against 3; the scans a (1.5 ms predicted, 1 measured: 50% over) and b
 * (2 against 2.5: 20% under) in the right order. */
static const char fid_doc[] = "{\"device\": \"Test GPU\", \"date\": \"2026-01-02\", \"rows\": [\n"
    FID_LAUNCH("a", "k_i32_add", 4, 6, 4, 20, 22)
    FID_LAUNCH("b", "m_i32_add", 3, 5, 4, 12, 14)
    FID_TIME("a", 1.5e6, 1e6) ",\n" FID_TIME("b", 2e6, 2.5e6) "\n]}\n";

/* The quick report with SCANLAB_FIDELITY_FILE=file (absolute): it
 * completes, into dir. */
static void report_with_fidelity(const char *dir, const char *file)
{
    const char *args[] = {"report", "--quick", "-o", dir, seed_arg, NULL};
    char *err;
    int rc = run(args, "SCANLAB_FIDELITY_FILE", file, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    free(err);
    md_has(dir, "## Simulator against the GPU");
    char *md = read_in(dir, "report.md");
    assert_null(strstr(md, "INCOMPLETE"));
    free(md);
}

/* The fidelity section on a small file (every figure worked out by hand),
 * without a file, and on a damaged one. */
static void test_fidelity_section(void **state)
{
    (void)state;
    only_sections = "fidelity";
    char file[128];
    snprintf(file, sizeof file, "%s/fid.json", workdir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(fid_doc, f);
    fclose(f);
    report_with_fidelity("fid", file);
    check_header("fid", "fidelity", "metric,counts,launches,exact,exact_percent,own_launches,own_exact");
    static const char *const rows[] = {
        "\nl1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,conflicts ld,2,0,0.0,2,1\n",
        "\nl1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,conflicts st,2,2,100.0,2,2\n",
        "\nl1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,wavefronts ld,2,0,0.0,,\n",
        "\nsmsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,own wavefronts ld,2,2,100.0,,\n"};
    char *csv = read_in("fid", "fidelity.csv");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strstr(csv, rows[i]))
            fail_msg("fidelity.csv lacks %s", rows[i]);
    assert_int_equal(count_lines(csv), 6 + 1);
    free(csv);
    check_header("fid", "fidelity-time", "algorithm,n,predicted_ms,measured_ms,ratio");
    char *times = read_in("fid", "fidelity-time.csv");
    assert_non_null(strstr(times, "\na,16777216,1.5000,1.0000,1.50\nb,16777216,2.0000,2.5000,0.80\n"));
    free(times);
    md_has("fid", "Test GPU, 2026-01-02");
    md_has("fid", "all exact: 1 of 2 launches (50.0%) over 2 kernels");
    md_has("fid", "as the l1tex counters give them: 0 of 2 (0.0%)");
    md_has("fid", "1 of 2 launches moving more than 1 MB within 25% (50.0%; goal 80%), median error 35.0%");
    md_has("fid", "n = 16777216: 1 of 1 (100.0%)");
    md_has("fid", "docs/model-fidelity.md");
    remove_report("fid");
    /* no file: said so, with how one is made */
    snprintf(file, sizeof file, "%s/none.json", workdir);
    report_with_fidelity("nofid", file);
    md_has("nofid", "No comparison of the simulator with a GPU has been recorded");
    md_has("nofid", "'tools/gpu-check.sh fidelity'");
    assert_false(exists("nofid", "fidelity.csv"));
    remove_report("nofid");
    /* a file cut off: named, nothing shown */
    snprintf(file, sizeof file, "%s/fid.json", workdir);
    f = fopen(file, "w");
    assert_non_null(f);
    fputs("{\"device\": \"Test GPU\", \"rows\": [{\"n\": 12", f);
    fclose(f);
    report_with_fidelity("badfid", file);
    md_has("badfid", "fid.json is not a fidelity file that this report can read");
    assert_false(exists("badfid", "fidelity.csv"));
    remove_report("badfid");
    unlink(file);
}

/* The project's litmus tests as the test files state them, read here
 * without scanlab: how many there are, and how many state a verdict of
 * the model ("model: ...") other than the PTX model's ("expected: ..."). */
static void litmus_counts(const char *root, size_t *tests, size_t *known)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/litmus/tests", root);
    DIR *d = opendir(dir);
    assert_non_null(d);
    *tests = *known = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len <= 7 || strcmp(e->d_name + len - 7, ".litmus") != 0)
            continue;
        char path[4400], exp[32] = "", mod[32] = "";
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = slurp(path);
        assert_non_null(text);
        const char *x = strstr(text, "\"expected: "), *m = strstr(text, "\"model: ");
        assert_non_null(x);
        sscanf(x + 11, "%31[a-z]", exp);
        if (m)
            sscanf(m + 8, "%31[a-z]", mod);
        (*tests)++;
        *known += m && strcmp(exp, mod) != 0;
        free(text);
    }
    closedir(d);
}

/* A GPU campaign in the format of tools/litmus_gpu: MP+rlx showed its
 * weak outcome (allowed), MP+rel+acq.gpu an outcome the model forbids,
 * 2+2W+rlx its weak outcome (allowed since the model places stores in
 * coherence order apart from the order they are performed in), and
 * LB+stated-gap an outcome the model forbids where the test states that
 * the model allows less than PTX (a known gap, not a failure). */
static const char litmus_doc[] =
    "{\"device\": \"Test GPU\", \"date\": \"2026-01-02\", \"seed\": 1, \"complete\": true, \"tests\": [\n"
    " {\"name\": \"2+2W+rlx\", \"runs\": 1000000, \"outcomes\": [{\"state\": \"x=1 y=1\", \"count\": 5},\n"
    "   {\"state\": \"x=2 y=2\", \"count\": 999995}]},\n"
    " {\"name\": \"LB+stated-gap\", \"runs\": 1000000, \"outcomes\": [{\"state\": \"P0:r1=1 P1:r2=1\", "
    "\"count\": 4},\n   {\"state\": \"P0:r1=0 P1:r2=0\", \"count\": 999996}]},\n"
    " {\"name\": \"MP+rlx\", \"runs\": 2000000, \"outcomes\": [{\"state\": \"P1:r1=1 P1:r2=0\", \"count\": 7},\n"
    "   {\"state\": \"P1:r1=0 P1:r2=0\", \"count\": 1999993}]},\n"
    " {\"name\": \"MP+rel+acq.gpu\", \"runs\": 1000000, \"outcomes\": [{\"state\": \"P1:r1=1 P1:r2=0\", "
    "\"count\": 3},\n   {\"state\": \"P1:r1=1 P1:r2=1\", \"count\": 999997}]}],\n"
    " \"skipped\": [{\"test\": \"LB+rlx\", \"file\": \"LB+rlx.litmus\", \"reason\": \"a reason\"}]}\n";

/* A source tree that is the real one without docs/ and tests/litmus:
 * every other entry a symbolic link to the real one. */
static void tree_without_litmus(const char *root)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/tests' && for e in '%s'/*; do case ${e##*/} in docs|tests) ;; *) ln -s \"$e\" '%s'/ ;; "
             "esac; done && for e in '%s'/tests/*; do [ \"${e##*/}\" = litmus ] || ln -s \"$e\" '%s/tests/'; done",
             root, source_root, root, source_root, root);
    assert_int_equal(system(cmd), 0);
}

/* The real source tree whose litmus tests are the project's and one that
 * states a gap the model does not have, so that the report's handling of
 * known gaps has one to show: LB with data dependencies (which the model
 * forbids, as PTX does) stated as allowed by PTX and forbidden by the
 * model. */
static void tree_with_stated_gap(const char *root)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/tests/litmus/tests' && "
             "for e in '%s'/*; do [ \"${e##*/}\" = tests ] || ln -s \"$e\" '%s'/; done && "
             "for e in '%s'/tests/*; do [ \"${e##*/}\" = litmus ] || ln -s \"$e\" '%s/tests/'; done && "
             "for e in '%s'/tests/litmus/*; do [ \"${e##*/}\" = tests ] || ln -s \"$e\" '%s/tests/litmus/'; done && "
             "ln -s '%s'/tests/litmus/tests/*.litmus '%s/tests/litmus/tests/' && "
             "sed -e 's/^PTX LB+datas$/PTX LB+stated-gap/' "
             "-e 's/^\"expected: forbidden (.*$/\"expected: allowed (a stand-in for the report test)\"\\n"
             "\"model: forbidden: a stand-in for a gap\"/' "
             "'%s/tests/litmus/tests/LB+datas.litmus' > '%s/tests/litmus/tests/LB+stated-gap.litmus'",
             root, source_root, root, source_root, root, source_root, root, source_root, root, source_root, root);
    assert_int_equal(system(cmd), 0);
}

/* The litmus section: the counts the test files give, the known
 * differences with their reason, the GPU's outcomes with a forbidden one
 * failing the report (exit 1, the report still written) and a stated gap
 * shown as known; an unreadable --litmus-observed refused before anything
 * runs; and a tree without the tests and without a record, said and no
 * failure. */
static void test_litmus_section(void **state)
{
    (void)state;
    only_sections = "litmus";
    char gap_root[128];
    snprintf(gap_root, sizeof gap_root, "%s/gaptree", workdir);
    tree_with_stated_gap(gap_root);
    size_t n, known;
    litmus_counts(gap_root, &n, &known);
    assert_true(n >= 30 && known > 0);
    char file[128];
    snprintf(file, sizeof file, "%s/litmus.json", workdir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(litmus_doc, f);
    fclose(f);
    const char *args[] = {"report", "--quick", "-o", "lit", seed_arg, "--litmus-observed", file, NULL};
    char *err;
    int rc = run(args, "SCANLAB_SOURCE_ROOT", gap_root, &err);
    if (rc != 1 || !strstr(err, "1 check failed"))
        fail_msg("exit %d, expected 1 with one failed check: %s", rc, err);
    free(err);
    md_has("lit", "## Memory model and litmus tests");
    char line[512];
    snprintf(line, sizeof line, "%zu tests (%s/tests/litmus/tests): %zu agree with the PTX memory model, %zu differ "
             "as the tests state", n, gap_root, n - known, known);
    md_has("lit", line);
    md_has("lit", "docs/memory-model.md");
    md_has("lit", "docs/deadlock.md");
    md_has("lit", "Test GPU, 2026-01-02");
    char *csv = read_in("lit", "litmus.csv");
    assert_int_equal(count_lines(csv), n + 1);
    assert_null(strstr(csv, "FAIL"));
    assert_non_null(strstr(csv, "\nMP+rlx,MP,cta 0 | cta 1,gpu,exists,allowed,allowed,yes,ok,"));
    assert_non_null(strstr(csv, "\nLB+rlx,LB,cta 0 | cta 1,gpu,exists,allowed,allowed,yes,ok,"));
    assert_non_null(strstr(csv, "\n2+2W+rlx,2+2W,cta 0 | cta 1,gpu,exists,allowed,allowed,yes,ok,"));
    assert_non_null(
        strstr(csv, "\nLB+stated-gap,LB,cta 0 | cta 1,gpu,exists,forbidden,allowed,no: known difference,ok,"));
    free(csv);
    check_header("lit", "litmus-differences", "test,verdict,expected,reason,ptx_reason");
    char *diff = read_in("lit", "litmus-differences.csv");
    assert_int_equal(count_lines(diff), known + 1);
    assert_non_null(strstr(diff, "\nLB+stated-gap,forbidden,allowed,a stand-in for a gap"));
    free(diff);
    check_header("lit", "litmus-observed", "test,runs,outcomes,weak,forbidden,check");
    char *obs = read_in("lit", "litmus-observed.csv");
    assert_int_equal(count_lines(obs), n + 1);
    assert_non_null(strstr(obs, "\nMP+rlx,2000000,2,P1:r1=1 P1:r2=0 (7),,ok\n"));
    assert_non_null(strstr(obs, "\nMP+rel+acq.gpu,1000000,2,P1:r1=1 P1:r2=0 (3),P1:r1=1 P1:r2=0 (3),"
                                "FAIL: 1 outcome the model forbids\n"));
    assert_non_null(strstr(obs, "\nLB+rlx,,,,,not run on the GPU: a reason\n"));
    assert_non_null(strstr(obs, "\n2+2W+rlx,1000000,2,x=1 y=1 (5),,ok\n"));
    assert_non_null(strstr(obs, "\nLB+stated-gap,1000000,2,P0:r1=1 P1:r2=1 (4),P0:r1=1 P1:r2=1 (4),KNOWN GAP: 1 "
                                "outcome the model forbids and the PTX model allows (stated in the test)\n"));
    md_has("lit", "Known gaps of the model, confirmed by the GPU: 1 test (LB+stated-gap) states");
    free(obs);
    /* the progress litmus tests: every one agrees with the verdicts it states */
    check_header("lit", "progress-litmus", "test,threads,states,expected,weak,strong,check,seconds");
    char *prog = read_in("lit", "progress-litmus.csv");
    assert_true(count_lines(prog) >= 11);
    assert_null(strstr(prog, "FAIL"));
    assert_non_null(strstr(prog, "\nMutex-CAS,2,"));
    assert_non_null(strstr(prog, ",yes / yes / no / yes / yes,yes / yes / no / yes / yes,"
                                 "yes / yes / no / yes / yes,ok,"));
    free(prog);
    /* the folder as the source root names it (here the copy of the tree) */
    md_has("lit", "tests/litmus/progress), as 'scanlab deadlock --litmus' runs them");
    char *js = read_in("lit", "report.json");
    const char *sec = strstr(js, "\"name\":\"litmus\"");
    assert_non_null(sec);
    assert_non_null(strstr(sec, "\"failed_checks\":1,"));
    free(js);
    remove_report("lit");
    /* a file that cannot be read: refused, nothing written */
    const char *bad[] = {"report", "--quick", "-o", "lit2", seed_arg, "--litmus-observed", "none.json", NULL};
    assert_int_equal(run(bad, NULL, NULL, &err), 2);
    assert_non_null(strstr(err, "--litmus-observed: cannot read 'none.json'"));
    free(err);
    assert_false(exists("lit2", "report.md"));
    /* no tests, no record: said, and the report passes */
    char root[128];
    snprintf(root, sizeof root, "%s/tree", workdir);
    tree_without_litmus(root);
    const char *plain[] = {"report", "--quick", "-o", "nolit", seed_arg, NULL};
    rc = run(plain, "SCANLAB_SOURCE_ROOT", root, &err);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, err);
    free(err);
    md_has("nolit", "The project's litmus tests are not here");
    md_has("nolit", "The GPU campaign has not been recorded");
    md_has("nolit", "The project's progress litmus tests are not here");
    assert_false(exists("nolit", "progress-litmus.csv"));
    md_has("nolit", "'tools/gpu-check.sh litmus'");
    assert_false(exists("nolit", "litmus.csv"));
    remove_report("nolit");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root, gap_root);
    assert_int_equal(system(cmd), 0);
    unlink(file);
}

static void test_help(void **state)
{
    (void)state;
    const char *args[] = {"report", "--help", NULL};
    assert_int_equal(run(args, NULL, NULL, NULL), 0);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s path/to/scanlab source-tree\n", argv[0]);
        return 2;
    }
    static char exe[4096];
    if (!realpath(argv[1], exe)) {
        perror(argv[1]);
        return 1;
    }
    scanlab = exe; /* the runs change directory */
    source_root = argv[2];
    const char *env = getenv("SCANLAB_SEED");
    uint64_t seed = env && *env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
    printf("# seed %" PRIu64 " (set SCANLAB_SEED to replay)\n", seed);
    snprintf(seed_arg, sizeof seed_arg, "--seed=%" PRIu64, seed);
    if (!mkdtemp(workdir)) {
        perror("mkdtemp");
        return 1;
    }
    /* CMOCKA_TEST_FILTER=test_name runs that test alone */
    if (getenv("CMOCKA_TEST_FILTER"))
        cmocka_set_test_filter(getenv("CMOCKA_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_help, all_sections),
        cmocka_unit_test_teardown(test_bad_usage, all_sections),
        cmocka_unit_test_teardown(test_quick_report, all_sections),
        cmocka_unit_test_teardown(test_forced_failure, all_sections),
        cmocka_unit_test_teardown(test_without_gnuplot, all_sections),
        cmocka_unit_test_teardown(test_refused_targets, all_sections),
        cmocka_unit_test_teardown(test_non_utf8_name, all_sections),
        cmocka_unit_test_teardown(test_interrupt, all_sections),
        cmocka_unit_test_teardown(test_claim_held, all_sections),
        cmocka_unit_test_teardown(test_marker_attack, all_sections),
        cmocka_unit_test_teardown(test_fidelity_section, all_sections),
        cmocka_unit_test_teardown(test_litmus_section, all_sections),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    static const char *const logs[] = {"stderr", "stderr-cut", "stderr-held"};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        char log[128];
        snprintf(log, sizeof log, "%s/%s", workdir, logs[i]);
        unlink(log);
    }
    rmdir(workdir);
    return failed;
}
