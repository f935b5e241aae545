/*
 * vfork + execve for hook processes.
 *
 * Node's child_process.spawn forks the whole agent (libuv uses fork() on Linux) and blocks the
 * event loop until the child has exec'd: ~1–1.7 ms per hook at Keel's 60–100 MB, growing with
 * the heap. vfork copies no page tables: ~0.2 ms whatever the agent's size. Hooks that run one
 * after another pay the spawn in full, once per hook.
 *
 * Not posix_spawn, which would be simpler: glibc's leaves its two internal signals (32, 33)
 * *ignored* in the child, and an ignored signal stays ignored across exec, so the hook would
 * differ from one child_process starts (test/hooks/fast-spawn.test.ts compares them).
 *
 * The child is set up the way child_process.spawn sets up a `detached` child with three pipes:
 * its own session (setsid), signals 1-31 at their default disposition (as libuv resets them),
 * an empty signal mask, the pipes on 0, 1 and 2, and none of Keel's other descriptors (all
 * close-on-exec).
 */
#define _GNU_SOURCE
#include "start.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The child's side: runs on the parent's stack and memory (vfork) until execve, so it only
 * calls async-signal-safe functions and writes nothing but *error. */
static void child(const char *file, char **args, char **envp, const char *cwd, int in, int out,
                  int err, volatile int *error) {
  /* Signals 1–31 back to their default, as libuv does for child_process: Node ignores SIGPIPE
   * and an ignored signal would stay ignored in the hook. (Caught signals are reset by execve
   * anyway; libuv leaves the real-time ones as they are, and so does this.) */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < 32; sig++)
    if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &dfl, NULL);
  if (setsid() < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 ||
      chdir(cwd) != 0) {
    *error = errno;
    _exit(127);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  execve(file, args, envp);
  *error = errno;
  _exit(127);
}

/* noinline: nothing of the caller's frame may live across vfork's second return. */
__attribute__((noinline)) pid_t start(const char *file, char **args, char **envp,
                                      const char *cwd, int in, int out, int err, int *error) {
  /* No handler of ours may run in the child while it shares our memory: block everything
   * until it has exec'd (the child unblocks just before execve). */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  volatile int child_error = 0;
  pid_t pid = vfork();
  if (pid == 0) child(file, args, envp, cwd, in, out, err, &child_error);
  int vfork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (pid < 0) {
    *error = vfork_errno;
    return -1;
  }
  if (child_error != 0) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    *error = child_error;
    return -1;
  }
  return pid;
}
