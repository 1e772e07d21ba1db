/* LD_PRELOAD shim for tests/scripts/output_lock.sh: a file system without flock (Lustre mounted
 * without -o flock, some NFS set-ups). flock() on a file named .inertia.lock fails with the errno
 * given by INERTIA_NOFLOCK_ERRNO (default ENOLCK); every other flock is the real one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int flock(int fd, int operation) {
  char link[64], path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, path, sizeof path - 1);
  if (n > 0) {
    path[n] = '\0';
    const char* name = strrchr(path, '/');
    if (name && strcmp(name, "/.inertia.lock") == 0) {
      const char* e = getenv("INERTIA_NOFLOCK_ERRNO");
      errno = e ? atoi(e) : ENOLCK;
      return -1;
    }
  }
  int (*real)(int, int) = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
  return real(fd, operation);
}
