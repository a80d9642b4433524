#include "verify/formats/output.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static sl_status fail(sl_status st, char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static sl_status fail(sl_status st, char *why, size_t size, const char *fmt, ...)
{
    if (why && size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* --- removal on interruption ------------------------------------------------ */

enum { MAX_REMEMBERED = 8 };
static char *remembered[MAX_REMEMBERED];
static volatile sig_atomic_t nremembered;

static void block_signals(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, old);
}

sl_status verify_output_remember(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return SL_ERR_NOMEM;
    sigset_t old;
    block_signals(&old);
    sl_status st = SL_ERR_NOMEM;
    if (nremembered < MAX_REMEMBERED) {
        remembered[nremembered] = copy;
        nremembered = nremembered + 1;
        st = SL_OK;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (st != SL_OK)
        free(copy);
    return st;
}

void verify_output_forget(const char *path)
{
    sigset_t old;
    block_signals(&old);
    for (sig_atomic_t i = 0; i < nremembered; i++)
        if (strcmp(remembered[i], path) == 0) {
            free(remembered[i]);
            remembered[i] = remembered[nremembered - 1];
            nremembered = nremembered - 1;
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static void remove_and_die(int sig)
{
    for (sig_atomic_t i = 0; i < nremembered; i++)
        unlink(remembered[i]); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

void verify_output_handle_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_and_die;
        sigfillset(&sa.sa_mask);
        /* a signal the caller's parent ignores (nohup) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* --- checks ----------------------------------------------------------------- */

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
         : S_ISBLK(m) ? "a block device" : S_ISLNK(m) ? "a symbolic link" : "not a regular file";
}

/* The directory that holds path (a copy in buf). */
static const char *parent_of(const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "%s", path);
    return dirname(buf);
}

static sl_status check_length(const char *path, char *why, size_t size)
{
    size_t len = strlen(path);
    if (len == 0)
        return fail(SL_ERR_ARG, why, size, "an empty path");
    if (len >= PATH_MAX)
        return fail(SL_ERR_ARG, why, size, "%s: %s (%zu characters; this system takes fewer than %d)",
                    path, strerror(ENAMETOOLONG), len, PATH_MAX);
    return SL_OK;
}

sl_status verify_output_check(const char *path, char *why, size_t size)
{
    sl_status st = check_length(path, why, size);
    if (st != SL_OK)
        return st;
    struct stat sb;
    if (stat(path, &sb) == 0) {
        if (S_ISFIFO(sb.st_mode))
            return SL_OK; /* opening it now would end a reader's input */
        if (!S_ISREG(sb.st_mode) && !S_ISCHR(sb.st_mode))
            return fail(SL_ERR_ARG, why, size, "%s is %s: the output is a regular file or a "
                        "character device such as /dev/stdout", path, kind_of(sb.st_mode));
        /* opening for writing without O_TRUNC changes nothing */
        int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            return fail(SL_ERR_ARG, why, size, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        return SL_OK;
    }
    if (errno != ENOENT)
        return fail(SL_ERR_ARG, why, size, "cannot write %s: %s", path, strerror(errno));
    struct stat lsb;
    if (lstat(path, &lsb) == 0)
        return fail(SL_ERR_ARG, why, size, "%s is a symbolic link to a missing file", path);
    char buf[PATH_MAX];
    const char *dir = parent_of(path, buf, sizeof buf);
    if (stat(dir, &sb) != 0)
        return fail(SL_ERR_ARG, why, size, "cannot write %s: %s: %s", path, dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return fail(SL_ERR_ARG, why, size, "cannot write %s: %s is not a directory", path, dir);
    /* try it: permissions alone do not say (root, read-only file systems) */
    char probe[PATH_MAX + 32];
    int n = snprintf(probe, sizeof probe, "%s/.scanlab-probe.XXXXXX", dir);
    if (n < 0 || (size_t)n >= PATH_MAX)
        return fail(SL_ERR_ARG, why, size, "%s: %s", path, strerror(ENAMETOOLONG));
    int fd = mkstemp(probe);
    if (fd < 0)
        return fail(SL_ERR_ARG, why, size, "cannot create %s: %s", path, strerror(errno));
    close(fd);
    unlink(probe);
    return SL_OK;
}

/* Whether the last component of path is '.', '..' or the root. */
static bool names_dot(const char *path)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && path[start - 1] != '/')
        start--;
    const char *last = path + start;
    size_t n = len - start;
    return n == 0 || (n == 1 && last[0] == '.') || (n == 2 && last[0] == '.' && last[1] == '.') ||
           (len == 1 && path[0] == '/');
}

sl_status verify_output_check_dir(const char *path, char *why, size_t size)
{
    sl_status st = check_length(path, why, size);
    if (st != SL_OK)
        return st;
    if (names_dot(path))
        return fail(SL_ERR_ARG, why, size, "'%s' names the current, parent or root directory: "
                    "give the report a directory of its own", path);
    char trimmed[PATH_MAX];
    snprintf(trimmed, sizeof trimmed, "%s", path);
    for (size_t len = strlen(trimmed); len > 1 && trimmed[len - 1] == '/'; len--)
        trimmed[len - 1] = '\0';
    struct stat sb;
    if (lstat(trimmed, &sb) == 0) {
        if (S_ISLNK(sb.st_mode))
            return fail(SL_ERR_ARG, why, size, "%s is a symbolic link: give the report's own "
                        "directory, not a link to one", trimmed);
        if (!S_ISDIR(sb.st_mode))
            return fail(SL_ERR_ARG, why, size, "%s exists and is %s, not a directory", trimmed,
                        kind_of(sb.st_mode));
    } else if (errno != ENOENT) {
        return fail(SL_ERR_ARG, why, size, "cannot use %s: %s", trimmed, strerror(errno));
    }
    char buf[PATH_MAX];
    const char *dir = parent_of(trimmed, buf, sizeof buf);
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return fail(SL_ERR_ARG, why, size, "cannot write %s: %s: %s", trimmed, dir,
                    errno ? strerror(errno) : "not a directory");
    if (access(dir, W_OK | X_OK) != 0)
        return fail(SL_ERR_ARG, why, size, "cannot write %s: %s: %s", trimmed, dir, strerror(errno));
    return SL_OK;
}

/* --- writing ---------------------------------------------------------------- */

/* Write every byte of buf at the file's offset, through EINTR and short
 * writes. */
static bool write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = EIO;
            return false;
        }
        p += k;
        len -= (size_t)k;
    }
    return true;
}

static bool write_parts(int fd, const void *const *parts, const size_t *sizes, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (sizes[i] && !write_all(fd, parts[i], sizes[i]))
            return false;
    return true;
}

static size_t total_of(const size_t *sizes, size_t count)
{
    size_t t = 0;
    for (size_t i = 0; i < count; i++)
        t += sizes[i];
    return t;
}

/* Reserve len bytes of fd (a regular file) before writing. A file system
 * that cannot reserve (EOPNOTSUPP, EINVAL) is written without. On failure
 * the file keeps its old size. */
static int reserve(int fd, size_t len, off_t old_size)
{
    if (len == 0)
        return 0;
    int e = posix_fallocate(fd, 0, (off_t)len);
    if (e == 0 || e == EOPNOTSUPP || e == EINVAL)
        return 0;
    if (ftruncate(fd, old_size) != 0) {
        /* the old size could not be put back: nothing more to do */
    }
    return e;
}

/* A new file: a temporary file beside it, linked into place when whole. */
static sl_status write_new(const char *path, const void *const *parts, const size_t *sizes,
                           size_t count, char *why, size_t size)
{
    char buf[PATH_MAX];
    const char *dir = parent_of(path, buf, sizeof buf);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char tmp[PATH_MAX + 32];
    int n = snprintf(tmp, sizeof tmp, "%s/.%s.tmp.XXXXXX", dir, base);
    if (n < 0 || (size_t)n >= sizeof tmp || (size_t)n >= PATH_MAX)
        return fail(SL_ERR_ARG, why, size, "%s: %s", path, strerror(ENAMETOOLONG));
    sigset_t old;
    block_signals(&old); /* no interruption between creating and remembering */
    int fd = mkstemp(tmp);
    int err = errno;
    sl_status st = fd >= 0 ? verify_output_remember(tmp) : SL_OK;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0)
        return fail(SL_ERR_IO, why, size, "cannot create %s: %s", path, strerror(err));
    if (st != SL_OK) {
        close(fd);
        unlink(tmp);
        return fail(SL_ERR_NOMEM, why, size, "%s: out of memory", path);
    }
    /* mkstemp makes the file private; give it what open(O_CREAT, 0666)
     * would have: 0666 less the umask */
    mode_t mask = umask(0);
    umask(mask);
    size_t total = total_of(sizes, count);
    bool ok = fchmod(fd, 0666 & ~mask) == 0 && (err = reserve(fd, total, 0)) == 0;
    if (ok)
        ok = write_parts(fd, parts, sizes, count);
    if (!ok && !err)
        err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok) {
        /* link refuses to replace a file made at path meanwhile; file
         * systems without hard links get a rename */
        if (link(tmp, path) != 0) {
            err = errno;
            ok = err != EEXIST && rename(tmp, path) == 0;
            if (!ok && err != EEXIST)
                err = errno;
        }
    }
    unlink(tmp);
    verify_output_forget(tmp);
    if (!ok)
        return fail(SL_ERR_IO, why, size, "cannot write %s: %s%s", path, strerror(err),
                    err == EEXIST ? " (it was created meanwhile; it was not changed)" : "");
    return SL_OK;
}

sl_status verify_output_write(const char *path, const void *const *parts, const size_t *sizes,
                              size_t count, char *why, size_t size)
{
    sl_status st = check_length(path, why, size);
    if (st != SL_OK)
        return st;
    /* O_NONBLOCK: a FIFO nobody reads fails at once instead of blocking */
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        struct stat lsb;
        if (lstat(path, &lsb) == 0)
            return fail(SL_ERR_ARG, why, size, "%s is a symbolic link to a missing file", path);
        return write_new(path, parts, sizes, count, why, size);
    }
    if (fd < 0) {
        /* a path that cannot be an output is the caller's mistake */
        int e = errno;
        bool arg = e == ENXIO || e == EISDIR || e == ENOTDIR || e == ELOOP || e == ENAMETOOLONG ||
                   e == EACCES || e == EPERM || e == EROFS;
        return fail(arg ? SL_ERR_ARG : SL_ERR_IO, why, size, "cannot write %s: %s", path,
                    e == ENXIO ? "a FIFO that nobody reads" : e == EISDIR ? "it is a directory"
                                                                        : strerror(e));
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return fail(SL_ERR_IO, why, size, "%s: %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode) && !S_ISCHR(sb.st_mode) && !S_ISFIFO(sb.st_mode)) {
        close(fd);
        return fail(SL_ERR_ARG, why, size, "%s is %s: the output is a regular file or a character "
                    "device such as /dev/stdout", path, kind_of(sb.st_mode));
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    size_t total = total_of(sizes, count);
    bool ok;
    int err = 0;
    if (S_ISREG(sb.st_mode)) {
        /* in place: the inode, its mode, owner and links stay */
        err = reserve(fd, total, sb.st_size);
        if (err) {
            close(fd);
            return fail(SL_ERR_IO, why, size, "cannot write %s: %s (the file was not changed)",
                        path, strerror(err));
        }
        ok = write_parts(fd, parts, sizes, count) && ftruncate(fd, (off_t)total) == 0;
        if (!ok) {
            err = errno;
            if (ftruncate(fd, 0) != 0) {
                /* nothing more can be done; the message says what happened */
            }
        }
    } else {
        ok = write_parts(fd, parts, sizes, count);
        if (!ok)
            err = errno;
    }
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok)
        return fail(SL_ERR_IO, why, size, "cannot write %s: %s%s", path, strerror(err),
                    S_ISREG(sb.st_mode) ? " (the file was left empty)" : "");
    return SL_OK;
}
