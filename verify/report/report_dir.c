/* The folder of 'scanlab report -o DIR' (report_dir.h): claim, install,
 * release, and the signal handlers that leave nothing behind. */
#include "verify/report/report_dir.h"
#include "verify/report/report_swap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

volatile pid_t report_dir_child;

static void say(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

static bool pid_alive(pid_t pid)
{
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* The pid in a lock file, or 0. */
static pid_t lock_pid(const char *path)
{
    FILE *f = fopen(path, "r");
    long pid = 0;
    if (f) {
        if (fscanf(f, "%ld", &pid) != 1)
            pid = 0;
        fclose(f);
    }
    return (pid_t)pid;
}

/* Whether resolved path dir is the working directory or one of its parents. */
static bool holds_cwd(const char *dir)
{
    char cwd[PATH_MAX], real[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) || !realpath(dir, real))
        return false;
    size_t len = strlen(real);
    if (len == 1) /* "/" */
        return true;
    return strncmp(cwd, real, len) == 0 && (cwd[len] == '\0' || cwd[len] == '/');
}

/* An existing folder may take a report when it is empty, holds an earlier
 * report, or holds only the lock of a report that died. */
static sl_status check_existing(const char *dir, const char *lock, char *why, size_t size)
{
    DIR *d = opendir(dir);
    if (!d) {
        say(why, size, "cannot read '%s': %s", dir, strerror(errno));
        return SL_ERR_ARG;
    }
    bool marker = false, others = false, lock_seen = false;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (strcmp(e->d_name, REPORT_MARKER) == 0)
            marker = true;
        else if (strcmp(e->d_name, REPORT_LOCK) == 0)
            lock_seen = true;
        else
            others = true;
    }
    closedir(d);
    if (lock_seen) {
        pid_t pid = lock_pid(lock);
        if (pid_alive(pid) && pid != getpid()) {
            say(why, size, "another scanlab report (pid %ld) is writing '%s'", (long)pid, dir);
            return SL_ERR_ARG;
        }
        if (unlink(lock) != 0 && errno != ENOENT) { /* a report that died */
            say(why, size, "cannot remove the stale lock %s: %s", lock, strerror(errno));
            return SL_ERR_ARG;
        }
    }
    if (others && !marker) {
        say(why, size, "'%s' exists and is not a scanlab report; refusing to write into it (choose "
                       "another -o)", dir);
        return SL_ERR_ARG;
    }
    return SL_OK;
}

sl_status report_dir_claim(report_dir *d, const char *path, char *why, size_t size)
{
    memset(d, 0, sizeof *d);
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    if (len == 0) {
        say(why, size, "empty directory name");
        return SL_ERR_ARG;
    }
    if (len + sizeof "/" REPORT_LOCK + 16 > sizeof d->dir) {
        say(why, size, "directory name too long");
        return SL_ERR_ARG;
    }
    memcpy(d->dir, path, len);
    d->dir[len] = '\0';
    /* lock is longer than dir by more than the suffix (checked above) */
    memcpy(d->lock, path, len);
    memcpy(d->lock + len, "/" REPORT_LOCK, sizeof "/" REPORT_LOCK);
    struct stat sb;
    if (lstat(d->dir, &sb) != 0) {
        if (errno != ENOENT) {
            say(why, size, "cannot use '%s': %s", d->dir, strerror(errno));
            return SL_ERR_ARG;
        }
        if (mkdir(d->dir, 0755) != 0) {
            say(why, size, "cannot write '%s': %s", d->dir, strerror(errno));
            return SL_ERR_ARG;
        }
        d->created_dir = true;
        if (lstat(d->dir, &sb) != 0) {
            say(why, size, "cannot use '%s': %s", d->dir, strerror(errno));
            return SL_ERR_ARG;
        }
    } else if (S_ISLNK(sb.st_mode)) {
        say(why, size, "'%s' is a symbolic link; give the folder itself", d->dir);
        return SL_ERR_ARG;
    } else if (!S_ISDIR(sb.st_mode)) {
        say(why, size, "'%s' exists and is not a directory", d->dir);
        return SL_ERR_ARG;
    } else if (holds_cwd(d->dir)) {
        say(why, size, "'%s' is the working directory or holds it; give a folder of its own", d->dir);
        return SL_ERR_ARG;
    } else {
        sl_status st = check_existing(d->dir, d->lock, why, size);
        if (st != SL_OK)
            return st;
    }
    d->dev = sb.st_dev;
    d->ino = sb.st_ino;
    int fd = open(d->lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    struct stat lb;
    if (fd < 0 || dprintf(fd, "%ld\n", (long)getpid()) < 0 || fstat(fd, &lb) != 0) {
        if (errno == EEXIST)
            say(why, size, "another scanlab report is writing '%s'", d->dir);
        else
            say(why, size, "cannot write into '%s': %s", d->dir, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(d->lock);
        }
        if (d->created_dir)
            rmdir(d->dir);
        return SL_ERR_ARG;
    }
    close(fd);
    d->lock_ino = lb.st_ino;
    snprintf(d->tmp, sizeof d->tmp, "%s.tmp-XXXXXX", d->dir);
    if (!mkdtemp(d->tmp)) {
        say(why, size, "cannot write next to '%s': %s", d->dir, strerror(errno));
        d->tmp[0] = '\0';
        report_dir_release(d);
        return SL_ERR_ARG;
    }
    chmod(d->tmp, 0755);
    return SL_OK;
}

/* Whether the claim still holds: DIR and the lock are the ones made or
 * checked at the start (a folder put at DIR meanwhile is not ours). */
static bool still_ours(const report_dir *d)
{
    struct stat sb, lb;
    return lstat(d->dir, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_dev == d->dev && sb.st_ino == d->ino &&
           lstat(d->lock, &lb) == 0 && lb.st_ino == d->lock_ino;
}

void report_dir_release(report_dir *d)
{
    if (still_ours(d)) {
        unlink(d->lock);
        if (d->created_dir)
            rmdir(d->dir); /* only when empty: what others put there stays */
    }
}

sl_status report_dir_install(report_dir *d, const char *command, char *why, size_t size)
{
    /* an interrupt now would leave half a report in DIR: it waits */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    sl_status st = SL_ERR_IO;
    if (!still_ours(d))
        say(why, size, "'%s' was removed or replaced while the report ran; the report stays in %s", d->dir, d->tmp);
    else
        st = report_swap(d, command, why, size);
    report_dir_unguard();
    sigprocmask(SIG_SETMASK, &old, NULL);
    return st;
}

/* --- signals: only async-signal-safe calls from here on -------------------- */

static report_dir *guarded;

/* Remove the entries of the folder at fd and below (depth levels), then the
 * folder name in parent. */
static void remove_level(int parent, const char *name, int depth)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[4096];
    for (ssize_t n; (n = getdents64(fd, buf, sizeof buf)) > 0;)
        for (ssize_t off = 0; off < n;) {
            struct dirent64 *e = (struct dirent64 *)(buf + off);
            off += e->d_reclen;
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            if (unlinkat(fd, e->d_name, 0) != 0 && depth > 0)
                remove_level(fd, e->d_name, depth - 1);
        }
    close(fd);
    unlinkat(parent, name, AT_REMOVEDIR);
}

static void on_signal(int sig)
{
    int saved = errno;
    pid_t child = report_dir_child;
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    report_dir *d = guarded;
    if (d) {
        if (d->tmp[0])
            remove_level(AT_FDCWD, d->tmp, 1);
        struct stat lb;
        if (lstat(d->lock, &lb) == 0 && lb.st_ino == d->lock_ino) {
            unlink(d->lock);
            if (d->created_dir)
                rmdir(d->dir);
        }
    }
    errno = saved;
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define GUARDED_SIGNALS (sizeof guarded_signals / sizeof guarded_signals[0])

void report_dir_guard(report_dir *d)
{
    guarded = d;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < GUARDED_SIGNALS; i++)
        sigaddset(&sa.sa_mask, guarded_signals[i]);
    for (size_t i = 0; i < GUARDED_SIGNALS; i++)
        sigaction(guarded_signals[i], &sa, NULL);
}

void report_dir_unguard(void)
{
    for (size_t i = 0; i < GUARDED_SIGNALS; i++)
        signal(guarded_signals[i], SIG_DFL);
    guarded = NULL;
}
