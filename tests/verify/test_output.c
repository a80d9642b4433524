/* The output contract (verify/formats/output.h) and the input guard
 * (verify/formats/npy.h), through the C API: an existing file is written
 * in place (mode 0600, hard links and a symbolic link's target kept), a new
 * one appears whole with the usual mode, nothing else is left in the
 * folder; a directory, a dangling link, a FIFO nobody reads and a path
 * longer than the system takes are refused, the last with its real reason;
 * a full device fails; an interrupted write removes what it was creating;
 * a FIFO or a directory given as input is refused without blocking. */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "tap.h"

#include "verify/formats/npy.h"
#include "verify/formats/output.h"

static char dir[] = "/tmp/scanlab-output-XXXXXX";

static const char *path_of(const char *name)
{
    static char buf[4][PATH_MAX];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void put(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    assert_int_equal(close(fd), 0);
    assert_int_equal(chmod(path, mode), 0);
}

/* The whole file, NUL-terminated (malloc'ed). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = calloc(1 << 16, 1);
    size_t len = fread(buf, 1, (1 << 16) - 1, f);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static sl_status write_text(const char *path, const char *text, char *why, size_t size)
{
    const void *parts[] = {text};
    size_t sizes[] = {strlen(text)};
    return verify_output_write(path, parts, sizes, 1, why, size);
}

/* Entries of the test folder other than those named (NULL-terminated). */
static int others_in_dir(const char *const *names)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int k = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        bool known = false;
        for (const char *const *n = names; *n; n++)
            known |= strcmp(e->d_name, *n) == 0;
        if (!known) {
            fprintf(stderr, "left in the folder: %s\n", e->d_name);
            k++;
        }
    }
    closedir(d);
    return k;
}

static int make_dir(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    if (d) {
        for (struct dirent *e; (e = readdir(d));)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                unlink(path_of(e->d_name));
        closedir(d);
    }
    return rmdir(dir);
}

static void existing_file_keeps_inode_mode_and_links(void **state)
{
    (void)state;
    char why[VERIFY_WHY_SIZE];
    const char *file = path_of("private"), *hard = path_of("hard"), *sym = path_of("sym");
    put(file, "old contents, longer than the new ones", 0600);
    assert_int_equal(link(file, hard), 0);
    assert_int_equal(symlink("private", sym), 0);
    struct stat before, after;
    assert_int_equal(stat(file, &before), 0);
    /* through the symbolic link */
    assert_int_equal(verify_output_check(sym, why, sizeof why), SL_OK);
    assert_int_equal(write_text(sym, "new", why, sizeof why), SL_OK);
    assert_int_equal(stat(file, &after), 0);
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_mode & 07777, 0600);
    assert_int_equal(after.st_nlink, 2);
    struct stat lsb;
    assert_int_equal(lstat(sym, &lsb), 0);
    assert_true(S_ISLNK(lsb.st_mode)); /* still a link */
    char *text = slurp(hard);          /* the other name sees the new contents */
    assert_string_equal(text, "new");
    free(text);
    const char *kept[] = {"private", "hard", "sym", NULL};
    assert_int_equal(others_in_dir(kept), 0);
    unlink(file);
    unlink(hard);
    unlink(sym);
}

static void new_file_appears_whole(void **state)
{
    (void)state;
    char why[VERIFY_WHY_SIZE];
    const char *file = path_of("fresh.npy");
    const int32_t x[] = {1, 2, 3};
    mode_t mask = umask(022);
    assert_int_equal(verify_output_check(file, why, sizeof why), SL_OK);
    assert_int_equal(verify_npy_write(file, SL_I32, x, 3, why, sizeof why), SL_OK);
    umask(mask);
    struct stat sb;
    assert_int_equal(stat(file, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644);
    void *data;
    sl_type t;
    size_t n;
    assert_int_equal(verify_npy_read(file, &t, &data, &n, why, sizeof why), SL_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(data, x, sizeof x);
    free(data);
    const char *kept[] = {"fresh.npy", NULL};
    assert_int_equal(others_in_dir(kept), 0); /* no temporary file left */
    unlink(file);
}

static void what_is_not_a_file_is_refused(void **state)
{
    (void)state;
    char why[VERIFY_WHY_SIZE];
    assert_int_equal(verify_output_check(dir, why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, "is a directory"));
    assert_int_equal(write_text(dir, "x", why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, "directory"));
    const char *dangling = path_of("dangling");
    assert_int_equal(symlink("nowhere", dangling), 0);
    assert_int_equal(verify_output_check(dangling, why, sizeof why), SL_ERR_ARG);
    assert_int_equal(write_text(dangling, "x", why, sizeof why), SL_ERR_ARG);
    unlink(dangling);
    /* a FIFO nobody reads: refused at once, never waited on */
    const char *fifo = path_of("fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    alarm(10);
    assert_int_equal(write_text(fifo, "x", why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, "nobody reads"));
    alarm(0);
    unlink(fifo);
    /* a folder that does not exist */
    assert_int_equal(verify_output_check(path_of("no/such/file"), why, sizeof why), SL_ERR_ARG);
    /* a place nothing can be created in, even by root */
    assert_int_equal(verify_output_check("/proc/scanlab-test.npy", why, sizeof why), SL_ERR_ARG);
    /* the character devices: /dev/null takes it, /dev/full fails the write */
    assert_int_equal(verify_output_check("/dev/null", why, sizeof why), SL_OK);
    assert_int_equal(write_text("/dev/null", "x", why, sizeof why), SL_OK);
    struct stat sb;
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    assert_int_equal(write_text("/dev/full", "x", why, sizeof why), SL_ERR_IO);
    assert_non_null(strstr(why, strerror(ENOSPC)));
}

/* A path longer than the system takes: the real reason, the whole path. */
static void long_path_gives_the_real_reason(void **state)
{
    (void)state;
    char *path = malloc(PATH_MAX + 200);
    assert_non_null(path);
    int len = snprintf(path, PATH_MAX + 200, "%s/", dir);
    while (len < PATH_MAX + 100)
        path[len++] = 'a';
    path[len] = '\0';
    char why[VERIFY_WHY_SIZE];
    assert_int_equal(verify_output_check(path, why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, strerror(ENAMETOOLONG)));
    assert_non_null(strstr(why, path)); /* not cut */
    /* one of 600 characters, within PATH_MAX: no longer cut at 511 */
    path[strlen(dir) + 1 + 600] = '\0';
    assert_int_equal(verify_output_check(path, why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, path));
    free(path);
}

/* A child creating a new file is killed: the temporary file goes. */
static void interrupted_write_leaves_nothing(void **state)
{
    (void)state;
    const char *file = path_of("slow.npy");
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        verify_output_handle_signals();
        /* what write_new does, stopped halfway */
        char tmp[PATH_MAX];
        snprintf(tmp, sizeof tmp, "%s/.slow.npy.tmp.XXXXXX", dir);
        int fd = mkstemp(tmp);
        if (fd < 0 || verify_output_remember(tmp) != SL_OK)
            _exit(3);
        if (write(ready[1], "x", 1) != 1)
            _exit(4);
        pause();
        _exit(5);
    }
    char c;
    close(ready[1]);
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    const char *none[] = {NULL};
    assert_int_equal(others_in_dir(none), 1); /* the temporary file exists */
    kill(pid, SIGINT);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
    assert_int_equal(others_in_dir(none), 0);
    assert_int_equal(access(file, F_OK), -1);
}

/* Inputs: a FIFO (no writer) and a directory are refused at once. */
static void input_must_be_a_regular_file(void **state)
{
    (void)state;
    char why[VERIFY_WHY_SIZE];
    const char *fifo = path_of("in.fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    void *data = NULL;
    sl_type t;
    size_t n;
    alarm(10); /* a blocking open would hang here */
    assert_int_equal(verify_array_read(fifo, SL_I32, &t, &data, &n, why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, "not a regular file (a FIFO)"));
    assert_int_equal(verify_npy_read(fifo, &t, &data, &n, why, sizeof why), SL_ERR_ARG);
    alarm(0);
    assert_int_equal(verify_raw_read(dir, SL_I32, &data, &n, why, sizeof why), SL_ERR_ARG);
    assert_non_null(strstr(why, "a directory"));
    unlink(fifo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(existing_file_keeps_inode_mode_and_links),
        cmocka_unit_test(new_file_appears_whole),
        cmocka_unit_test(what_is_not_a_file_is_refused),
        cmocka_unit_test(long_path_gives_the_real_reason),
        cmocka_unit_test(interrupted_write_leaves_nothing),
        cmocka_unit_test(input_must_be_a_regular_file),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
