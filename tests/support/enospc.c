/* LD_PRELOAD shim for the fault tests (tests/scripts/faults.sh): a disk that fills up, or a quota.
 * Writes to files under the directory INERTIA_FULL_DIR succeed until INERTIA_FULL_BYTES bytes have
 * been written there by this process, then fail with ENOSPC (a write that would cross the budget
 * writes what fits, like a real full disk). Used where the machine cannot mount a small tmpfs;
 * every process of an MPI run counts its own bytes. statvfs() of a path there reports the bytes
 * left as the free space, unless INERTIA_FULL_SPACE=real (then the writes fail unannounced, as
 * under a quota or when another program fills the disk). Optional:
 *   INERTIA_FULL_ERRNO=ENOSPC|EDQUOT|EIO  the error the writes fail with (default ENOSPC)
 *   INERTIA_FULL_RANKS=0,2                only these MPI ranks (OMPI_COMM_WORLD_RANK, PMI_RANK)
 *                                         have a budget; the others write freely
 *   INERTIA_FULL_DEFERRED=1               writes past the budget "succeed" and the error is
 *                                         reported by the next fsync, fdatasync or close of that
 *                                         file, as NFS reports a quota and write-back an EIO
 * posix_fallocate and fallocate count against the budget as writes do. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
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
static int failure = ENOSPC;
static int deferred = 0;
static unsigned char pending[4096]; /* deferred mode: fds whose writes went past the budget */

static int this_rank_fails(void) {
  const char* ranks = getenv("INERTIA_FULL_RANKS");
  if (!ranks || !*ranks) return 1;
  const char* mine = getenv("OMPI_COMM_WORLD_RANK");
  if (!mine) mine = getenv("PMI_RANK");
  if (!mine) mine = "0";
  const int rank = atoi(mine);
  for (const char* p = ranks; *p;) {
    char* end = NULL;
    const long r = strtol(p, &end, 10);
    if (end == p) break;
    if (r == rank) return 1;
    p = *end == ',' ? end + 1 : end;
  }
  return 0;
}

static void configure(void) {
  if (!dir) {
    dir = getenv("INERTIA_FULL_DIR");
    const char* bytes = getenv("INERTIA_FULL_BYTES");
    budget = bytes ? atoll(bytes) : 0;
    if (!dir || !this_rank_fails()) dir = "";
    const char* e = getenv("INERTIA_FULL_ERRNO");
    if (e && strcmp(e, "EDQUOT") == 0) failure = EDQUOT;
    if (e && strcmp(e, "EIO") == 0) failure = EIO;
    const char* d = getenv("INERTIA_FULL_DEFERRED");
    deferred = d && strcmp(d, "1") == 0;
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

/* How many of `count` bytes may be written; 0 with errno set once the budget is spent. In the
 * deferred mode every byte may be written, and the file remembers that it went past. */
static size_t allowed(int fd, size_t count) {
  if (!watched(fd)) return count;
  if (deferred) {
    if (budget < (long long)count && fd < (int)sizeof pending) pending[fd] = 1;
    budget -= (long long)count;
    return count;
  }
  if (budget <= 0) {
    errno = failure;
    return 0;
  }
  if ((long long)count > budget) count = (size_t)budget;
  budget -= (long long)count;
  return count;
}

/* Deferred mode: -1 with errno set if `fd` has a failure to report (once). */
static int report_pending(int fd) {
  if (fd >= 0 && fd < (int)sizeof pending && pending[fd]) {
    pending[fd] = 0;
    errno = failure;
    return -1;
  }
  return 0;
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

static ssize_t vectored(int fd, const struct iovec* iov, int iovcnt, off_t offset) {
  /* Rare for our writers: write the vectors one by one through write() or pwrite(). */
  ssize_t total = 0;
  for (int i = 0; i < iovcnt; ++i) {
    const ssize_t n = offset < 0 ? write(fd, iov[i].iov_base, iov[i].iov_len)
                                 : pwrite(fd, iov[i].iov_base, iov[i].iov_len, offset + total);
    if (n < 0) return total ? total : -1;
    total += n;
    if ((size_t)n < iov[i].iov_len) break;
  }
  return total;
}

ssize_t writev(int fd, const struct iovec* iov, int iovcnt) {
  static ssize_t (*real)(int, const struct iovec*, int) = NULL;
  if (!real) real = (ssize_t(*)(int, const struct iovec*, int))dlsym(RTLD_NEXT, "writev");
  if (!watched(fd)) return real(fd, iov, iovcnt);
  return vectored(fd, iov, iovcnt, -1);
}

ssize_t pwritev(int fd, const struct iovec* iov, int iovcnt, off_t offset) {
  static ssize_t (*real)(int, const struct iovec*, int, off_t) = NULL;
  if (!real) real = (ssize_t(*)(int, const struct iovec*, int, off_t))dlsym(RTLD_NEXT, "pwritev");
  if (!watched(fd)) return real(fd, iov, iovcnt, offset);
  return vectored(fd, iov, iovcnt, offset);
}

ssize_t pwritev64(int fd, const struct iovec* iov, int iovcnt, off_t offset) {
  return pwritev(fd, iov, iovcnt, offset);
}

/* Space reserved counts as written; a reservation past the budget fails whole. */
static int reserve(int fd, off_t len) {
  if (!watched(fd) || deferred) return 0;
  if (budget < (long long)len) return failure;
  budget -= (long long)len;
  return 0;
}

int posix_fallocate(int fd, off_t offset, off_t len) {
  static int (*real)(int, off_t, off_t) = NULL;
  if (!real) real = (int (*)(int, off_t, off_t))dlsym(RTLD_NEXT, "posix_fallocate");
  const int status = reserve(fd, len);
  return status ? status : real(fd, offset, len);
}

int posix_fallocate64(int fd, off_t offset, off_t len) { return posix_fallocate(fd, offset, len); }

int fallocate(int fd, int mode, off_t offset, off_t len) {
  static int (*real)(int, int, off_t, off_t) = NULL;
  if (!real) real = (int (*)(int, int, off_t, off_t))dlsym(RTLD_NEXT, "fallocate");
  const int status = reserve(fd, len);
  if (status) {
    errno = status;
    return -1;
  }
  return real(fd, mode, offset, len);
}

int fallocate64(int fd, int mode, off_t offset, off_t len) {
  return fallocate(fd, mode, offset, len);
}

int fsync(int fd) {
  static int (*real)(int) = NULL;
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  const int status = real(fd);
  return report_pending(fd) ? -1 : status;
}

int fdatasync(int fd) {
  static int (*real)(int) = NULL;
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  const int status = real(fd);
  return report_pending(fd) ? -1 : status;
}

int close(int fd) {
  static int (*real)(int) = NULL;
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "close");
  const int status = real(fd);
  return report_pending(fd) ? -1 : status;
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
