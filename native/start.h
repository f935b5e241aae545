/* Starting a hook process by vfork (start.c) and waiting for it on Keel's waiter thread
 * (run.c). keel-spawn.c binds them to JavaScript. */
#ifndef KEEL_START_H
#define KEEL_START_H
#include <stddef.h>
#include <sys/types.h>

/* vforks and execs `file` with the pipes' ends on 0, 1 and 2, in its own session, signals as
 * child_process.spawn leaves them. The pid, or -1 with *error set (the child already reaped). */
pid_t start(const char *file, char **args, char **envp, const char *cwd, int in, int out,
            int err, int *error);

/* What a finished run hands back. Output past `max` bytes per stream is read and dropped. */
struct outcome {
  pid_t pid;
  int code;   /* exit code, or -1 when killed by a signal */
  int signal; /* the signal that killed it, or -1 */
  int truncated;
  int final; /* 0: the hook has exited but a grandchild holds its pipes; the final one follows */
  int leftover; /* final: something still runs in the hook's process group */
  char *out, *err;
  size_t out_len, err_len;
};

/* Whether hooks can be watched here (0), or the errno that says why not (no pidfd_open before
 * Linux 5.3, no thread): then nothing may be started. Starts the waiter thread on first call. */
int waiter_ready(void);

/* Hands one started child to the waiter thread: it writes `payload` (taken over, freed) into
 * `in`, reads `out` and `err` up to `max` bytes each until both end, reaps the child, and once
 * it has exited waits at most `grace_ms` for pipes a grandchild still holds. Then it calls
 * done(outcome, ctx), `final` set; before that, once with only the exit status when pipes
 * outlive the exit. Each outcome is the callee's to free (outcome_free). Returns 0, or an
 * errno when the child cannot be watched (nothing taken over then). */
int watch_child(pid_t pid, int in, int out, int err, char *payload, size_t payload_len,
                size_t max, int grace_ms, void (*done)(struct outcome *, void *), void *ctx);

void outcome_free(struct outcome *o);

#endif
