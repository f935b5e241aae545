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
 * close-on-exec). Reaping is the caller's: reap(pid) after SIGCHLD. Built by
 * scripts/build-native.mjs; src/hooks/fast-spawn.ts falls back to child_process.spawn when it
 * is missing.
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <signal.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Throws an Error whose `errno` property is the (positive) error number. */
static void throw_errno(napi_env env, int err) {
  napi_value msg, error, code;
  napi_create_string_utf8(env, strerror(err), NAPI_AUTO_LENGTH, &msg);
  napi_create_error(env, NULL, msg, &error);
  napi_create_int32(env, err, &code);
  napi_set_named_property(env, error, "errno", code);
  napi_throw(env, error);
}

/* A copy of a JS string, or NULL if it is not a string or holds a NUL (the caller checks). */
static char *copy_string(napi_env env, napi_value value) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &len) != napi_ok) return NULL;
  char *s = malloc(len + 1);
  if (s == NULL) return NULL;
  napi_get_value_string_utf8(env, value, s, len + 1, &len);
  if (strlen(s) != len) {
    free(s);
    return NULL;
  }
  return s;
}

static void free_strings(char **list) {
  if (list == NULL) return;
  for (char **p = list; *p != NULL; p++) free(*p);
  free(list);
}

/* A NULL-terminated copy of a JS array of strings. */
static char **copy_strings(napi_env env, napi_value array) {
  uint32_t n = 0;
  if (napi_get_array_length(env, array, &n) != napi_ok) return NULL;
  char **list = calloc(n + 1, sizeof(char *));
  if (list == NULL) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    if (napi_get_element(env, array, i, &item) != napi_ok ||
        (list[i] = copy_string(env, item)) == NULL) {
      free_strings(list);
      return NULL;
    }
  }
  return list;
}

static void close_pair(int fds[2]) {
  for (int i = 0; i < 2; i++)
    if (fds[i] >= 0) close(fds[i]);
}

/* The child's side of spawn: runs on the parent's stack and memory (vfork) until execve, so it
 * only calls async-signal-safe functions and writes nothing but *error. */
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

/* vforks and execs; the pid, or -1 with *error set once the child is reaped. Kept out of
 * Spawn so that nothing of Spawn's lives across vfork's second return. */
__attribute__((noinline)) static pid_t start(const char *file, char **args, char **envp,
                                             const char *cwd, int in, int out, int err,
                                             int *error) {
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

/* Writes what fits of the payload into the (non-blocking) stdin pipe at once: the hook may not
 * have started reading, or may never read. Returns the bytes written; all of them when the
 * hook has already gone (EPIPE: nothing left to deliver). */
static size_t write_payload(int fd, const char *data, size_t len) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, data + done, len - done);
    if (n > 0) {
      done += (size_t)n;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return n < 0 && errno == EPIPE ? len : done;
    }
  }
  return done;
}

/* spawn(file, argv, envp, cwd, payload) -> [pid, stdin, stdout, stderr, written]: our ends of
 * the pipes (close-on-exec, stdin non-blocking), and how much of the payload (a Buffer) is
 * already in the pipe; when all of it is, stdin is closed and -1. Throws an Error with
 * `errno` when the child cannot be started (a missing cwd or program included), after reaping
 * it. */
static napi_value Spawn(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_value result = NULL;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char *file = argc == 5 ? copy_string(env, argv[0]) : NULL;
  char **args = argc == 5 ? copy_strings(env, argv[1]) : NULL;
  char **envp = argc == 5 ? copy_strings(env, argv[2]) : NULL;
  char *cwd = argc == 5 ? copy_string(env, argv[3]) : NULL;
  void *payload = NULL;
  size_t payload_len = 0;
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  if (file == NULL || args == NULL || envp == NULL || cwd == NULL ||
      napi_get_buffer_info(env, argv[4], &payload, &payload_len) != napi_ok) {
    napi_throw_type_error(env, NULL,
                          "spawn(file, argv, envp, cwd, payload): strings without NUL, a Buffer");
    goto done;
  }
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    throw_errno(env, errno);
    goto done;
  }
  int error = 0;
  pid_t pid = start(file, args, envp, cwd, in[0], out[1], err[1], &error);
  if (pid < 0) {
    throw_errno(env, error);
    goto done;
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  in[0] = out[1] = err[1] = -1;
  fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
  size_t written = write_payload(in[1], payload, payload_len);
  if (written == payload_len) {
    close(in[1]);
    in[1] = -1;
  }
  int values[5] = {pid, in[1], out[0], err[0], (int)written};
  in[1] = out[0] = err[0] = -1;
  napi_create_array_with_length(env, 5, &result);
  for (uint32_t i = 0; i < 5; i++) {
    napi_value v;
    napi_create_int32(env, values[i], &v);
    napi_set_element(env, result, i, v);
  }
done:
  close_pair(in);
  close_pair(out);
  close_pair(err);
  free(file);
  free(cwd);
  free_strings(args);
  free_strings(envp);
  return result;
}

/* reap(pid) -> null while the child runs, else [exitCode, signal] with -1 for the one that
 * does not apply ([-1, -1]: already reaped by someone else, status unknown). */
static napi_value Reap(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], result;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t pid = 0;
  if (argc != 1 || napi_get_value_int32(env, argv[0], &pid) != napi_ok || pid <= 0) {
    napi_throw_type_error(env, NULL, "reap(pid): a positive pid");
    return NULL;
  }
  int status = 0;
  pid_t r;
  do r = waitpid(pid, &status, WNOHANG);
  while (r < 0 && errno == EINTR);
  int code = -1, sig = -1;
  if (r == 0 || (r > 0 && !WIFEXITED(status) && !WIFSIGNALED(status))) {
    napi_get_null(env, &result);
    return result;
  }
  if (r > 0 && WIFEXITED(status)) code = WEXITSTATUS(status);
  if (r > 0 && WIFSIGNALED(status)) sig = WTERMSIG(status);
  napi_value a, b;
  napi_create_array_with_length(env, 2, &result);
  napi_create_int32(env, code, &a);
  napi_create_int32(env, sig, &b);
  napi_set_element(env, result, 0, a);
  napi_set_element(env, result, 1, b);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "spawn", NAPI_AUTO_LENGTH, Spawn, NULL, &fn);
  napi_set_named_property(env, exports, "spawn", fn);
  napi_create_function(env, "reap", NAPI_AUTO_LENGTH, Reap, NULL, &fn);
  napi_set_named_property(env, exports, "reap", fn);
  return exports;
}
