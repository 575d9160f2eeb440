#!/usr/bin/env python3
"""Compares builds of landmark-near on one command, run in turn on this shared machine.

    python3 Benchmarks/ab/alternate.py N BIN1,BIN2[,...] ARGS...

Runs each binary N times with ARGS (stdout and stderr discarded), rotating which goes first,
and prints for each the median wall time and the median user+sys CPU time of the process,
both also relative to the first binary. Alternating, rather than N of one then N of the other,
keeps the machine's load swings out of the ratio; CPU time is the steadier of the two when
the other core is busy. Benchmarks/LOG.md quotes its ratios (e.g. "times without a zone").
"""
import os
import statistics
import subprocess
import sys
import time


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    count = int(sys.argv[1])
    binaries = sys.argv[2].split(",")
    arguments = sys.argv[3:]
    times = {binary: ([], []) for binary in binaries}
    for round_number in range(count):
        shift = round_number % len(binaries)
        for binary in binaries[shift:] + binaries[:shift]:
            start = time.perf_counter()
            process = subprocess.Popen([binary] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(process.pid, 0)
            if status != 0:
                sys.exit(f"{binary} exited with status {status >> 8}")
            times[binary][0].append(time.perf_counter() - start)
            times[binary][1].append(usage.ru_utime + usage.ru_stime)
    first_wall, first_cpu = (statistics.median(values) for values in times[binaries[0]])
    for binary in binaries:
        wall, cpu = (statistics.median(values) for values in times[binary])
        print(f"{binary:50s} wall {wall:.4f} s ({wall / first_wall:.3f})  cpu {cpu:.4f} s ({cpu / first_cpu:.3f})")


if __name__ == "__main__":
    main()
