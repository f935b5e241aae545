"""Runs one command and prints its wall time, CPU time (user+sys) and peak RSS as JSON.

    python3 measure.py CMD [ARGS...]     (stdin from /dev/null, stdout/stderr to /dev/null)

Used by bench/peers/run.ts: the resource figures come from getrusage(RUSAGE_CHILDREN), with
microsecond CPU precision (GNU time and bash's `times` round to 10 ms). Set MEASURE_STDOUT to a
file path to keep the command's stdout and stderr."""
import json, os, resource, subprocess, sys, time

out = open(os.environ["MEASURE_STDOUT"], "wb") if os.environ.get("MEASURE_STDOUT") else subprocess.DEVNULL
t0 = time.perf_counter()
p = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=out, stderr=out)
wall = time.perf_counter() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "code": p.returncode,
    "wallMs": wall * 1000,
    "cpuMs": (ru.ru_utime + ru.ru_stime) * 1000,
    "rssKb": ru.ru_maxrss,
}))
