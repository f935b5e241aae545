"""Runs one command and prints its wall time, CPU time (user+sys) and peak RSS as JSON.

    python3 measure.py CMD [ARGS...]     (stdin from /dev/null, stdout/stderr to /dev/null)

Used by bench/peers/run.ts: the resource figures are the command's own (wait4 on its process:
it and the children it waited for), with microsecond CPU precision (GNU time and bash's `times`
round to 10 ms). Not getrusage(RUSAGE_CHILDREN): that also counts what Python's own start-up
ran in child processes (~50 ms of CPU on some machines), which inflated every CPU figure by
the same amount and pulled every CPU ratio towards 1. Set MEASURE_STDOUT to a file path to keep
the command's stdout and stderr."""
import json, os, subprocess, sys, time

out = open(os.environ["MEASURE_STDOUT"], "wb") if os.environ.get("MEASURE_STDOUT") else subprocess.DEVNULL
t0 = time.perf_counter()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=out, stderr=out)
_, status, ru = os.wait4(p.pid, 0)
wall = time.perf_counter() - t0
print(json.dumps({
    "code": os.waitstatus_to_exitcode(status),
    "wallMs": wall * 1000,
    "cpuMs": (ru.ru_utime + ru.ru_stime) * 1000,
    "rssKb": ru.ru_maxrss,
}))
