/* LD_PRELOAD shim for the fault tests (tests/scripts/faults.sh): a disk that fills up. Writes to
 * files under the directory INERTIA_FULL_DIR succeed until INERTIA_FULL_BYTES bytes have been
 * written there by this process, then fail with ENOSPC (a write that would cross the budget
 * writes what fits, like a real full disk). Used where the machine cannot mount a small tmpfs;
 * every process of an MPI run counts its own bytes. statvfs() of a path there reports the bytes
 * left as the free space, unless INERTIA_FULL_SPACE=real (then the writes fail unannounced). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long budget = -1; /* bytes left; -1: not configured yet */
static const char* dir = NULL;

static void configure(void) {
  if (!dir) {
    dir = getenv("INERTIA_FULL_DIR");
    const char* bytes = getenv("INERTIA_FULL_BYTES");
    budget = bytes ? atoll(bytes) : 0;
    if (!dir) dir = "";
  }
}

static int watched(int fd) {
  configure();
  if (!*dir || fd < 3) return 0;
  char link[64], target[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return 0;
  target[n] = '\0';
  return strncmp(target, dir, strlen(dir)) == 0;
}

/* How many of `count` bytes may be written; 0 with errno = ENOSPC once the budget is spent. */
static size_t allowed(int fd, size_t count) {
  if (!watched(fd)) return count;
  if (budget <= 0) {
    errno = ENOSPC;
    return 0;
  }
  if ((long long)count > budget) count = (size_t)budget;
  budget -= (long long)count;
  return count;
}

ssize_t write(int fd, const void* buf, size_t count) {
  static ssize_t (*real)(int, const void*, size_t) = NULL;
  if (!real) real = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
  const size_t n = count ? allowed(fd, count) : 0;
  if (count && n == 0) return -1;
  return real(fd, buf, n);
}

ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
  static ssize_t (*real)(int, const void*, size_t, off_t) = NULL;
  if (!real) real = (ssize_t(*)(int, const void*, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
  const size_t n = count ? allowed(fd, count) : 0;
  if (count && n == 0) return -1;
  return real(fd, buf, n, offset);
}

ssize_t pwrite64(int fd, const void* buf, size_t count, off_t offset) {
  return pwrite(fd, buf, count, offset);
}

ssize_t writev(int fd, const struct iovec* iov, int iovcnt) {
  static ssize_t (*real)(int, const struct iovec*, int) = NULL;
  if (!real) real = (ssize_t(*)(int, const struct iovec*, int))dlsym(RTLD_NEXT, "writev");
  if (!watched(fd)) return real(fd, iov, iovcnt);
  /* Rare for our writers: write the vectors one by one through write(). */
  ssize_t total = 0;
  for (int i = 0; i < iovcnt; ++i) {
    const ssize_t n = write(fd, iov[i].iov_base, iov[i].iov_len);
    if (n < 0) return total ? total : -1;
    total += n;
    if ((size_t)n < iov[i].iov_len) break;
  }
  return total;
}

int statvfs(const char* path, struct statvfs* buf) {
  static int (*real)(const char*, struct statvfs*) = NULL;
  if (!real) real = (int (*)(const char*, struct statvfs*))dlsym(RTLD_NEXT, "statvfs");
  const int status = real(path, buf);
  configure();
  const char* space = getenv("INERTIA_FULL_SPACE");
  char resolved[PATH_MAX];
  if (status == 0 && *dir && !(space && strcmp(space, "real") == 0) && realpath(path, resolved) &&
      strncmp(resolved, dir, strlen(dir)) == 0) {
    const unsigned long unit = buf->f_frsize ? buf->f_frsize : 1;
    buf->f_bavail = buf->f_bfree = budget > 0 ? (fsblkcnt_t)(budget / (long long)unit) : 0;
  }
  return status;
}

int statvfs64(const char* path, struct statvfs64* buf) {
  return statvfs(path, (struct statvfs*)buf);
}
