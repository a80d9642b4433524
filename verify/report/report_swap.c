/* Landing a finished report in DIR whole or not at all (report_swap.h).
 *
 * The staging folder DIR.tmp-XXXXXX already holds the whole report. What
 * DIR holds that is not the earlier report's (a file of the user's) moves
 * into the staging folder, the new marker is written there, and then one
 * rename exchanges the two folders: DIR is at every instant either the
 * earlier folder or the new report, never a mixture. What is left of the
 * earlier folder is the earlier report's files, removed last.
 *
 * Every step works on directory descriptors opened with O_NOFOLLOW and on
 * single names inside them, so that no symbolic link in DIR (src/ among
 * them) is ever followed: a link is a file of the user's like any other.
 * The marker of the earlier report is trusted only for plain names of
 * regular files directly in DIR or in a real folder DIR/src. */
#include "verify/report/report_swap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder below DIR that a report writes (figures' data and scripts). */
#define SRC_DIR "src"

static void say(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

/* A name a report may write inside one folder: no slash, not hidden (so
 * neither "." nor ".."), not empty. */
static bool plain_name(const char *s)
{
    return *s && *s != '.' && !strchr(s, '/') && strlen(s) < NAME_MAX;
}

typedef struct {
    char **v;
    size_t n, cap;
} names;

static void names_free(names *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    *l = (names){0};
}

static bool names_add(names *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(s)))
        return false;
    l->n++;
    return true;
}

static bool names_has(const names *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return true;
    return false;
}

/* The entries of the folder at dirfd (not "." and ".."), or false. */
static bool list_dir(int dirfd, names *out)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    rewinddir(d);
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            ok = names_add(out, e->d_name);
    closedir(d);
    return ok;
}

static bool is_kind(int dirfd, const char *name, mode_t kind)
{
    struct stat sb;
    return fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && (sb.st_mode & S_IFMT) == kind;
}

static bool present(int dirfd, const char *name)
{
    struct stat sb;
    return fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0;
}

/* A folder inside dirfd, never through a link; -1 when there is none. */
static int open_sub(int dirfd, const char *name)
{
    return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* The two folders of the swap: the earlier one (DIR) and the new report. */
typedef struct {
    int old, old_src; /* DIR and DIR/src (a real folder), or -1 */
    int new, new_src; /* the staging folder and its src/, or -1 */
    bool made_src;    /* new_src was made to take files of the user's */
    names top, src;   /* what the earlier report listed: plain names */
    names mine_top, mine_src; /* the user's entries, to carry over */
    names old_top, old_src_files; /* the earlier report's, to remove */
    names staged;     /* the new report's files, for its marker */
} swap;

/* The earlier marker's plain names: "x" into s->top, "src/x" into s->src;
 * anything else in it is ignored. */
static void read_marker(swap *s)
{
    int fd = openat(s->old, REPORT_MARKER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return;
    }
    char line[PATH_MAX];
    bool first = true; /* the command line */
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (first) {
            first = false;
        } else if (strncmp(line, SRC_DIR "/", sizeof SRC_DIR) == 0) {
            if (plain_name(line + sizeof SRC_DIR))
                names_add(&s->src, line + sizeof SRC_DIR);
        } else if (plain_name(line)) {
            names_add(&s->top, line);
        }
    }
    fclose(f);
}

/* The regular files of the staging folder and of its src/. */
static bool list_staged(swap *s)
{
    names all = {0};
    bool ok = list_dir(s->new, &all);
    for (size_t i = 0; ok && i < all.n; i++)
        if (plain_name(all.v[i]) && is_kind(s->new, all.v[i], S_IFREG))
            ok = names_add(&s->staged, all.v[i]);
    names_free(&all);
    if (ok && s->new_src >= 0) {
        ok = list_dir(s->new_src, &all);
        for (size_t i = 0; ok && i < all.n; i++) {
            char rel[NAME_MAX + sizeof SRC_DIR + 1];
            snprintf(rel, sizeof rel, SRC_DIR "/%s", all.v[i]);
            if (plain_name(all.v[i]) && is_kind(s->new_src, all.v[i], S_IFREG))
                ok = names_add(&s->staged, rel);
        }
        names_free(&all);
    }
    return ok;
}

/* Sort DIR's entries into the earlier report's and the user's; a user's
 * entry whose name the new report also writes stops the install. */
static sl_status classify(swap *s, const char *dir, char *why, size_t size)
{
    names all = {0};
    if (!list_dir(s->old, &all)) {
        say(why, size, "cannot list '%s': %s", dir, strerror(errno));
        return SL_ERR_IO;
    }
    sl_status st = SL_OK;
    for (size_t i = 0; i < all.n && st == SL_OK; i++) {
        const char *e = all.v[i];
        if (strcmp(e, REPORT_MARKER) == 0 || strcmp(e, REPORT_LOCK) == 0)
            continue;
        if (strcmp(e, SRC_DIR) == 0 && is_kind(s->old, e, S_IFDIR)) {
            s->old_src = open_sub(s->old, SRC_DIR); /* checked entry by entry below */
            if (s->old_src < 0) {
                say(why, size, "cannot open '%s/%s': %s", dir, SRC_DIR, strerror(errno));
                st = SL_ERR_IO;
            }
            continue;
        }
        bool ok = names_has(&s->top, e) && is_kind(s->old, e, S_IFREG);
        if (!ok && present(s->new, e)) {
            say(why, size, "'%s/%s' is not a file of the earlier report and this report writes '%s'", dir, e, e);
            st = SL_ERR_IO;
        } else if (!names_add(ok ? &s->old_top : &s->mine_top, e)) {
            say(why, size, "out of memory");
            st = SL_ERR_NOMEM;
        }
    }
    names_free(&all);
    if (st != SL_OK || s->old_src < 0)
        return st;
    if (!list_dir(s->old_src, &all)) {
        say(why, size, "cannot list '%s/%s': %s", dir, SRC_DIR, strerror(errno));
        return SL_ERR_IO;
    }
    for (size_t i = 0; i < all.n && st == SL_OK; i++) {
        const char *e = all.v[i];
        bool ok = names_has(&s->src, e) && is_kind(s->old_src, e, S_IFREG);
        if (!ok && present(s->new_src, e)) {
            say(why, size, "'%s/%s/%s' is not a file of the earlier report and this report writes it", dir,
                SRC_DIR, e);
            st = SL_ERR_IO;
        } else if (!names_add(ok ? &s->old_src_files : &s->mine_src, e)) {
            say(why, size, "out of memory");
            st = SL_ERR_NOMEM;
        }
    }
    names_free(&all);
    return st;
}

static sl_status write_marker(const swap *s, const char *command)
{
    int fd = openat(s->new, REPORT_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return SL_ERR_IO;
    }
    fprintf(f, "scanlab report: %s\n", command);
    for (size_t i = 0; i < s->staged.n; i++)
        fprintf(f, "%s\n", s->staged.v[i]);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        unlinkat(s->new, REPORT_MARKER, 0);
        return SL_ERR_IO;
    }
    return SL_OK;
}

/* Move the user's entries from one pair of folders to the other (k of
 * them, or all): into the new report, or back after a failure. Returns
 * how many moved. */
static size_t carry(const swap *s, bool back, size_t k_top, size_t k_src)
{
    size_t moved = 0;
    for (size_t i = 0; i < k_top; i++, moved++) {
        const char *e = s->mine_top.v[i];
        if ((back ? renameat(s->new, e, s->old, e) : renameat(s->old, e, s->new, e)) != 0)
            return moved;
    }
    for (size_t i = 0; i < k_src; i++, moved++) {
        const char *e = s->mine_src.v[i];
        if ((back ? renameat(s->new_src, e, s->old_src, e) : renameat(s->old_src, e, s->new_src, e)) != 0)
            return moved;
    }
    return moved;
}

static void carry_back(swap *s, size_t moved)
{
    size_t k_top = moved < s->mine_top.n ? moved : s->mine_top.n;
    carry(s, true, k_top, moved - k_top);
    if (s->made_src)
        unlinkat(s->new, SRC_DIR, AT_REMOVEDIR); /* only when empty */
}

/* Exchange the paths of the staging folder and DIR; where the file system
 * cannot exchange, DIR moves aside and the report takes its place (DIR is
 * then missing for an instant, never partial). *aside: where the earlier
 * folder is now. */
static int exchange(const report_dir *d, char *aside, size_t size)
{
    snprintf(aside, size, "%s", d->tmp);
    if (renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->dir, RENAME_EXCHANGE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return -1;
    snprintf(aside, size, "%s.old-XXXXXX", d->dir);
    if (!mkdtemp(aside))
        return -1;
    if (rename(d->dir, aside) != 0) {
        rmdir(aside);
        return -1;
    }
    if (rename(d->tmp, d->dir) != 0) {
        int e = errno;
        rename(aside, d->dir);
        errno = e;
        return -1;
    }
    return 0;
}

/* The earlier folder, now at aside: its report's files, the marker and
 * the lock go; anything that appeared meanwhile stays, and is said. */
static void remove_earlier(const swap *s, const char *aside)
{
    for (size_t i = 0; i < s->old_src_files.n; i++)
        unlinkat(s->old_src, s->old_src_files.v[i], 0);
    if (s->old_src >= 0)
        unlinkat(s->old, SRC_DIR, AT_REMOVEDIR);
    for (size_t i = 0; i < s->old_top.n; i++)
        unlinkat(s->old, s->old_top.v[i], 0);
    unlinkat(s->old, REPORT_MARKER, 0);
    unlinkat(s->old, REPORT_LOCK, 0);
    if (rmdir(aside) != 0)
        fprintf(stderr, "scanlab: report: the earlier report's folder kept what appeared in it while the report "
                        "was moved into place: see %s\n", aside);
}

static void swap_close(swap *s)
{
    int *fds[] = {&s->old, &s->old_src, &s->new, &s->new_src};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (*fds[i] >= 0)
            close(*fds[i]);
    names *lists[] = {&s->top, &s->src, &s->mine_top, &s->mine_src, &s->old_top, &s->old_src_files, &s->staged};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        names_free(lists[i]);
}

sl_status report_swap(const report_dir *d, const char *command, char *why, size_t size)
{
    swap s = {.old = open_sub(AT_FDCWD, d->dir), .old_src = -1, .new = open_sub(AT_FDCWD, d->tmp), .new_src = -1};
    struct stat sb;
    if (s.old < 0 || s.new < 0 || fstat(s.old, &sb) != 0 || sb.st_dev != d->dev || sb.st_ino != d->ino) {
        say(why, size, "'%s' was removed or replaced while the report ran; the report stays in %s", d->dir, d->tmp);
        swap_close(&s);
        return SL_ERR_IO;
    }
    s.new_src = open_sub(s.new, SRC_DIR);
    read_marker(&s);
    sl_status st = list_staged(&s) ? SL_OK : SL_ERR_IO;
    if (st != SL_OK)
        say(why, size, "cannot list the files of %s", d->tmp);
    if (st == SL_OK)
        st = classify(&s, d->dir, why, size);
    if (st == SL_OK && s.mine_src.n && s.new_src < 0) { /* files of the user's in src/, no figures */
        s.made_src = mkdirat(s.new, SRC_DIR, 0755) == 0;
        if (!s.made_src || (s.new_src = open_sub(s.new, SRC_DIR)) < 0) {
            say(why, size, "cannot make %s/%s: %s", d->tmp, SRC_DIR, strerror(errno));
            st = SL_ERR_IO;
        }
    }
    if (st == SL_OK && write_marker(&s, command) != SL_OK) {
        say(why, size, "cannot write %s/%s: %s", d->tmp, REPORT_MARKER, strerror(errno));
        st = SL_ERR_IO;
    }
    if (st != SL_OK) {
        if (st == SL_ERR_IO && !strstr(why, d->tmp))
            snprintf(why + strlen(why), size - strlen(why), "; nothing in %s was changed, the report is in %s",
                     d->dir, d->tmp);
        swap_close(&s);
        return st;
    }
    const size_t want = s.mine_top.n + s.mine_src.n;
    size_t moved = carry(&s, false, s.mine_top.n, s.mine_src.n);
    char aside[PATH_MAX + 32];
    fchmod(s.new, sb.st_mode & 07777); /* DIR keeps its permissions */
    if (moved != want || exchange(d, aside, sizeof aside) != 0) {
        say(why, size, "cannot move the report into %s: %s; nothing in it was changed, the report is in %s",
            d->dir, strerror(errno), d->tmp);
        carry_back(&s, moved);
        unlinkat(s.new, REPORT_MARKER, 0);
        swap_close(&s);
        return SL_ERR_IO;
    }
    remove_earlier(&s, aside);
    swap_close(&s);
    return SL_OK;
}
