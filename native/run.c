/*
 * Waiting for a hook process on a thread of its own.
 *
 * Handed to Node, one child costs three pipe streams, a SIGCHLD listener and a dozen events on
 * the main thread (~0.3 ms at least, more in a large heap) — paid once per hook when hooks run
 * one after another. Here a detached thread feeds the payload, drains both pipes, reaps the
 * child and reports once: the main thread sees one callback per hook.
 *
 * Semantics are runProcess's (src/hooks/process.ts): output past the cap is read and dropped
 * (a flooding hook is never blocked on a full pipe), a hook that never reads stdin is fine,
 * and once the hook has exited, pipes a grandchild keeps open are given up after a grace
 * period. Timeouts and cancellation stay in JavaScript: they signal the process group, and
 * this thread sees the exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "start.h"

struct capture {
  char *data;
  size_t len, room;
};

struct job {
  pid_t pid;
  int in, out, err, pidfd;
  char *payload;
  size_t payload_len, written, max;
  int grace_ms, truncated;
  struct capture captured[2];
  struct outcome *outcome;
  void (*done)(struct outcome *, void *);
  void *ctx;
};

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* Keeps what fits under the cap; the rest is dropped and marks the run truncated. */
static void keep(struct job *job, struct capture *c, const char *data, size_t n) {
  size_t take = job->max - c->len < n ? job->max - c->len : n;
  if (take < n) job->truncated = 1;
  if (take == 0) return;
  if (c->len + take > c->room) {
    size_t room = c->room ? c->room : 4096;
    while (room < c->len + take) room *= 2;
    if (room > job->max) room = job->max;
    char *grown = realloc(c->data, room);
    if (grown == NULL) {
      job->truncated = 1;
      return;
    }
    c->data = grown;
    c->room = room;
  }
  memcpy(c->data + c->len, data, take);
  c->len += take;
}

/* Reads what is there; closes the pipe at its end (or on an error other than EAGAIN). */
static void drain(struct job *job, int *fd, struct capture *c) {
  char buf[16384];
  ssize_t n = read(*fd, buf, sizeof buf);
  if (n > 0)
    keep(job, c, buf, (size_t)n);
  else if (n == 0 || (errno != EINTR && errno != EAGAIN))
    close_fd(fd);
}

/* Writes more of the payload; done (closed) when all of it is in, or the hook has gone. */
static void feed(struct job *job) {
  ssize_t n = write(job->in, job->payload + job->written, job->payload_len - job->written);
  if (n > 0) job->written += (size_t)n;
  if ((n < 0 && errno != EINTR && errno != EAGAIN) || job->written == job->payload_len)
    close_fd(&job->in);
}

/* The exit status, or 0 while the child runs. */
static int reaped(struct job *job, int *status, int options) {
  pid_t r;
  do r = waitpid(job->pid, status, options);
  while (r < 0 && errno == EINTR);
  /* ECHILD: reaped by someone else; report it as gone with an unknown status. */
  if (r < 0) *status = -1;
  return r != 0;
}

static void set_status(struct outcome *o, int status) {
  o->code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o->signal = status != -1 && WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

/* The exit, told at once when a grandchild keeps the pipes open: a timeout that fires in the
 * grace period after it must not count against the hook. */
static void report_exit(struct job *job, int status) {
  struct outcome *o = calloc(1, sizeof *o);
  if (o == NULL) return;
  o->pid = job->pid;
  set_status(o, status);
  job->done(o, job->ctx);
}

/* Just after the exit: reads what the hook left in its pipes. True when both have ended, false
 * when something else (a grandchild) still holds one open. */
static int ended_with(struct job *job) {
  for (int round = 0; round < 64 && (job->out >= 0 || job->err >= 0); round++) {
    struct pollfd p[2] = {{job->out, POLLIN, 0}, {job->err, POLLIN, 0}};
    if (poll(p, 2, 0) <= 0) break;
    if (p[0].revents) drain(job, &job->out, &job->captured[0]);
    if (p[1].revents) drain(job, &job->err, &job->captured[1]);
  }
  return job->out < 0 && job->err < 0;
}

static void *wait_for_child(void *arg) {
  struct job *job = arg;
  int status = 0, exited = 0;
  int64_t deadline = 0;
  for (;;) {
    /* Done when every pipe has ended; stdin counts while the hook may still be reading it. */
    if (job->out < 0 && job->err < 0 && (job->in < 0 || exited)) break;
    if (exited && now_ms() >= deadline) break;
    struct pollfd p[4];
    int n = 0, at_out = -1, at_err = -1, at_in = -1, at_pid = -1;
    if (job->out >= 0) p[at_out = n++] = (struct pollfd){job->out, POLLIN, 0};
    if (job->err >= 0) p[at_err = n++] = (struct pollfd){job->err, POLLIN, 0};
    if (job->in >= 0) p[at_in = n++] = (struct pollfd){job->in, POLLOUT, 0};
    if (!exited && job->pidfd >= 0) p[at_pid = n++] = (struct pollfd){job->pidfd, POLLIN, 0};
    /* Without a pidfd (kernels before 5.3) an exit is noticed by looking every 10 ms. */
    int timeout = exited ? (int)(deadline - now_ms()) : job->pidfd >= 0 ? -1 : 10;
    if (poll(p, n, timeout < 0 && exited ? 0 : timeout) < 0 && errno != EINTR) break;
    if (at_in >= 0 && p[at_in].revents) feed(job);
    if (at_out >= 0 && p[at_out].revents) drain(job, &job->out, &job->captured[0]);
    if (at_err >= 0 && p[at_err].revents) drain(job, &job->err, &job->captured[1]);
    if (!exited && (job->pidfd < 0 || (at_pid >= 0 && p[at_pid].revents)) &&
        reaped(job, &status, WNOHANG)) {
      exited = 1;
      deadline = now_ms() + job->grace_ms;
      if (!ended_with(job)) report_exit(job, status);
    }
  }
  /* Both pipes ended (or were given up): the child has exited, or is about to, or closed them
   * and runs on until JavaScript's timeout kills its group. */
  if (!exited) reaped(job, &status, 0);
  close_fd(&job->in);
  close_fd(&job->out);
  close_fd(&job->err);
  close_fd(&job->pidfd);
  free(job->payload);

  struct outcome *o = job->outcome;
  o->pid = job->pid;
  o->final = 1;
  set_status(o, status);
  o->truncated = job->truncated;
  o->out = job->captured[0].data;
  o->out_len = job->captured[0].len;
  o->err = job->captured[1].data;
  o->err_len = job->captured[1].len;
  job->done(o, job->ctx);
  free(job);
  return NULL;
}

int wait_on_thread(pid_t pid, int in, int out, int err, char *payload, size_t payload_len,
                   size_t max, int grace_ms, void (*done)(struct outcome *, void *), void *ctx) {
  struct job *job = calloc(1, sizeof *job);
  struct outcome *o = calloc(1, sizeof *o);
  if (job == NULL || o == NULL) {
    free(job);
    free(o);
    return ENOMEM;
  }
  *job = (struct job){.pid = pid, .in = in, .out = out, .err = err, .payload = payload,
                      .payload_len = payload_len, .max = max, .grace_ms = grace_ms,
                      .outcome = o, .done = done, .ctx = ctx};
  job->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (payload_len == 0) close_fd(&job->in);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 128 * 1024);
  /* The thread takes no signal of Keel's: it starts with all of them blocked. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  pthread_t thread;
  int r = pthread_create(&thread, &attr, wait_for_child, job);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
  if (r != 0) {
    close_fd(&job->pidfd);
    free(job);
    free(o);
  }
  return r;
}

void outcome_free(struct outcome *o) {
  if (o == NULL) return;
  free(o->out);
  free(o->err);
  free(o);
}
