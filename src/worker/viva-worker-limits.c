/* viva-worker-limits.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <gio/gio.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "viva-worker-limits.h"

#if defined(__SANITIZE_ADDRESS__)
# define VIVA_ASAN_BUILD 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define VIVA_ASAN_BUILD 1
# endif
#endif

#define FILE_SIZE_LIMIT (G_GUINT64_CONSTANT (64) << 20)
#define OPEN_FILES_LIMIT 1024

static void
lower_limit (int     resource,
             guint64 value)
{
  struct rlimit limit;

  if (getrlimit (resource, &limit) != 0)
    return;

  /* Only ever lower: the hard limit may be below what we ask for. */
  if (limit.rlim_max != RLIM_INFINITY && value > limit.rlim_max)
    value = limit.rlim_max;
  limit.rlim_cur = value;
  setrlimit (resource, &limit);
}

/**
 * viva_worker_set_limits:
 * @memory_limit: bytes of address space, or 0 for none
 *
 * Address space (a memory bomb becomes a `MemoryError`), no core dumps, and a
 * file size cap. Python ignores `SIGXFSZ`, so writing past the cap raises
 * `OSError` instead of killing the worker.
 */
void
viva_worker_set_limits (guint64 memory_limit)
{
  /* AddressSanitizer reserves terabytes of shadow address space, so a
   * sanitizer build of the worker cannot live under an address-space cap. */
#ifndef VIVA_ASAN_BUILD
  if (memory_limit > 0)
    lower_limit (RLIMIT_AS, memory_limit);
#endif
  lower_limit (RLIMIT_CORE, 0);
  lower_limit (RLIMIT_FSIZE, FILE_SIZE_LIMIT);
  lower_limit (RLIMIT_NOFILE, OPEN_FILES_LIMIT);
}

/**
 * viva_worker_set_cpu_budget:
 * @seconds: CPU seconds the next run may use
 *
 * A backstop for a run that the app's wall-clock timer could not stop (the
 * app itself hung): RLIMIT_CPU counts the whole life of the process, so the
 * soft limit is moved to what was used so far plus the budget.
 */
void
viva_worker_set_cpu_budget (guint seconds)
{
  struct rlimit limit;
  struct rusage usage;
  guint64 used;

  if (getrusage (RUSAGE_SELF, &usage) != 0 || getrlimit (RLIMIT_CPU, &limit) != 0)
    return;

  used = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1;
  limit.rlim_cur = used + seconds;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_cur > limit.rlim_max)
    limit.rlim_cur = limit.rlim_max;
  setrlimit (RLIMIT_CPU, &limit);
}

#if defined(__x86_64__)
# define FILTER_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
# define FILTER_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
# define FILTER_ARCH AUDIT_ARCH_I386
#endif

#define DENY(nr, err) \
  BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((err) & SECCOMP_RET_DATA))

/* System calls that reach into another process or out of the sandbox's
 * namespaces: EPERM, whatever the arguments. */
#define DENY_ALWAYS(X) \
  X (ptrace) X (process_vm_readv) X (process_vm_writev) X (process_madvise) \
  X (pidfd_open) X (pidfd_getfd) X (pidfd_send_signal) X (kcmp) \
  X (perf_event_open) X (bpf) X (userfaultfd) X (keyctl) X (add_key) \
  X (request_key) X (unshare) X (setns) X (mount) X (umount2) X (pivot_root) \
  X (chroot) X (open_tree) X (move_mount) X (fsopen) X (fsmount) X (fspick) \
  X (mount_setattr) X (io_uring_setup) X (io_uring_enter) X (io_uring_register) \
  X (personality) X (seccomp)

/* Memory that RLIMIT_AS does not count, because it is not mapped while it
 * is held: memfd files, System V shared memory and message queues, POSIX
 * message queues. A worker capped at 1 GiB held 2.5 GiB this way. POSIX
 * shared memory is a file on /dev/shm, which bubblewrap's read-only /dev
 * refuses; /tmp is a tmpfs of its own size. EPERM: there is no fallback
 * to offer, and numpy, matplotlib and ctypes use none of these. */
#define DENY_MEMORY(X) \
  X (memfd_create) X (shmget) X (shmat) X (msgget) X (mq_open)

#define DENY_SYSCALL(name) DENY_NR (__NR_##name, EPERM)
#define DENY_NR(nr, err) \
  BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((err) & SECCOMP_RET_DATA)),

/**
 * viva_worker_forbid_processes:
 *
 * A seccomp filter on every thread of the worker (and any thread the code
 * starts later): creating processes is forbidden (threads stay allowed),
 * so a fork bomb ends at its first fork with `PermissionError`. This holds
 * for root too, which RLIMIT_NPROC does not: root is exempt from it, and for
 * a normal user it counts every process of the user, not the worker's.
 * `clone3` answers ENOSYS so that glibc falls back to `clone`, whose flags
 * the filter can read. Reaching into other processes (ptrace,
 * process_vm_readv and the like), new namespaces, mounts, io_uring (whose
 * operations a filter does not see) and new filters fail with EPERM, and
 * so do the calls that hold memory outside RLIMIT_AS (DENY_MEMORY).
 */
gboolean
viva_worker_forbid_processes (GError **error)
{
#ifdef FILTER_ARCH
  struct sock_filter filter[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, FILTER_ARCH, 1, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
# ifdef __x86_64__
    /* x32 system calls would be a way around the numbers below. */
    BPF_JUMP (BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
# endif
# ifdef __NR_clone3
    DENY_NR (__NR_clone3, ENOSYS)
# endif
# ifdef __NR_fork
    DENY_NR (__NR_fork, EPERM)
# endif
# ifdef __NR_vfork
    DENY_NR (__NR_vfork, EPERM)
# endif
    DENY_ALWAYS (DENY_SYSCALL)
    DENY_MEMORY (DENY_SYSCALL)
# ifdef __NR_memfd_secret
    DENY_NR (__NR_memfd_secret, EPERM)
# endif
# ifdef __NR_ipc
    /* i386 reaches System V IPC through one multiplexed call. */
    DENY_NR (__NR_ipc, EPERM)
# endif
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, args[0])),
    BPF_JUMP (BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = {
    .len = G_N_ELEMENTS (filter),
    .filter = filter,
  };

  /* TSYNC: the helper threads exist already, and a filter set with prctl()
   * would hold for the calling thread only. */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall (__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "seccomp: %s", g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
#else
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       "seccomp: no filter for this architecture");
  return FALSE;
#endif
}
