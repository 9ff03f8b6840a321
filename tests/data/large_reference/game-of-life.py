from common import Lcg, args, out

w, h, gens, percent, seed = args((20, 16, 20, 35, 5150))
rng = Lcg(seed)


def step(live):
    counts = {}
    for x, y in live:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    key = ((x + dx) % w, (y + dy) % h)
                    counts[key] = counts.get(key, 0) + 1
    new = {c for c, n in counts.items() if n == 3 or (n == 2 and c in live)}
    return new, len(new - live), len(live - new)


def checksum(live):
    s = 0
    for i in sorted(y * w + x for x, y in live):
        s = (s + i * i + i) % 1000003
    return s


def bounds(live):
    out(min(x for x, _ in live), min(y for _, y in live), max(x for x, _ in live), max(y for _, y in live))


def run(live, n, report):
    births = deaths = 0
    for g in range(1, n + 1):
        live, born, died = step(live)
        births, deaths = births + born, deaths + died
        if report and g % 10 == 0:
            out(g, len(live))
    if report:
        out(births, deaths)
    return live


start = set()
for i in range(w * h):
    if rng.below(100) < percent:
        start.add((i % w, i // w))
out(len(start))
final = run(start, gens, True)
out(checksum(final))
bounds(final)
out(*(sum(1 for x, y in final if (x < w // 2) == left and (y < h // 2) == top)
       for top, left in ((True, True), (True, False), (False, True), (False, False))))
glider = {(2, 1), (3, 2), (1, 3), (2, 3), (3, 3)}
moved = run(glider, 4, False)
bounds(moved)
bounds(run(moved, 16, False))
out(checksum(glider), len(moved))
blinker = {(9, 10), (10, 10), (11, 10)}
once, twice = run(blinker, 1, False), run(blinker, 2, False)
out(checksum(once) != checksum(blinker), checksum(twice) == checksum(blinker))
