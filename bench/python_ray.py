"""Ray's cost over the core: aggregate environment steps/s of N Ray actors and
Ray's per-call overhead, on a local Ray cluster of this machine's CPUs.

The workload of `make bench-python`: episodes of 20 xorshift actions on
suite-v0/power-mod, IrInstructionCount reward, in `compgym.make`'s
environment. Measured:

* the same steps in a process of their own without Ray, as an actor has
  (the one-core rate), measured again just before each row, as the
  machine's load drifts;
* N actors (1, 2, ... up to the CPUs), each stepping BATCH actions per remote
  call, all at once: aggregate steps/s, and efficiency per core
  (aggregate / (N x the one-core rate just before));
* the same with one step per remote call (what an RL loop driving a remote
  environment step by step pays);
* Ray's overhead: a no-op task's round trip, one after another and as many
  in flight as there are CPUs; an actor method's round trip.

    make bench-ray      (or: .venv/bin/python bench/python_ray.py [steps-per-actor])
"""

import os
import subprocess
import sys
import time

import ray

import compgym
import compgym.ray as cray

STEPS = int(sys.argv[-1]) if len(sys.argv) > 1 else 40_000
BATCH = 2_000
EPISODE = 20
OPTIONS = dict(benchmark="benchmark://suite-v0/power-mod", reward_space="IrInstructionCount")


def xorshift(count, n=32):
    state, out = 0x9E3779B9, []
    for _ in range(count):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        out.append(state % n)
    return out


ACTIONS = xorshift(BATCH)


def local_rate(steps):
    env = compgym.make("bril-ic-v0", **OPTIONS)
    env.reset()
    start = time.perf_counter()
    done = 0
    while done < steps:
        for i, a in enumerate(ACTIONS):
            env.step(a)
            if (i + 1) % EPISODE == 0:
                env.reset()
        done += len(ACTIONS)
    return done / (time.perf_counter() - start)


def actors_rate(n, steps, batch):
    actors = [cray.Environment.remote("bril-ic-v0", **OPTIONS) for _ in range(n)]
    ray.get([a.reset.remote() for a in actors])
    ray.get([a.run.remote(ACTIONS[:batch], EPISODE) for a in actors])  # warm
    calls = steps // batch
    start = time.perf_counter()
    pending = [a.run.remote(ACTIONS[:batch], EPISODE) for a in actors for _ in range(calls)]
    total = sum(s for _, s in ray.get(pending))
    rate = total / (time.perf_counter() - start)
    for a in actors:
        ray.kill(a)
    return rate


@ray.remote(num_cpus=1)
def noop():
    return None


def per_call(f, count):
    start = time.perf_counter()
    f(count)
    return (time.perf_counter() - start) / count


def main():
    cpus = os.cpu_count() or 1
    start = time.perf_counter()
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    init = time.perf_counter() - start
    print(f"{cpus} CPUs, load average {os.getloadavg()[0]:.1f}; ray.init {init:.1f} s; {STEPS:,} steps per actor\n")
    print("| actors | steps per call | one core, no Ray | aggregate steps/s | per core vs no Ray |")
    print("|---:|---:|---:|---:|---:|")
    for batch, steps in ((BATCH, STEPS), (1, max(STEPS // 20, 200))):
        for n in range(1, cpus + 1):
            one = float(subprocess.check_output([sys.executable, __file__, "--local", str(STEPS // 2)]))
            rate = actors_rate(n, steps, batch)
            print(f"| {n} | {batch:,} | {one:,.0f} | {rate:,.0f} | {rate / (n * one):.2f} |")
    ray.get([noop.remote() for _ in range(50)])  # warm workers
    seq = per_call(lambda k: [ray.get(noop.remote()) for _ in range(k)], 500)
    par = per_call(lambda k: ray.get([noop.remote() for _ in range(k)]), 2000)
    actor = cray.Environment.remote("bril-ic-v0", **OPTIONS)
    ray.get(actor.reset.remote())
    call = per_call(lambda k: [ray.get(actor.run.remote([], EPISODE)) for _ in range(k)], 500)
    print()
    print(f"no-op task, round trip one at a time: {seq * 1e6:,.0f} µs")
    print(f"no-op task, {2000} in flight: {par * 1e6:,.0f} µs each ({1 / par:,.0f} tasks/s)")
    print(f"actor method (no steps), round trip: {call * 1e6:,.0f} µs")
    ray.shutdown()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--local"]:
        print(local_rate(int(sys.argv[2])))
    else:
        main()
