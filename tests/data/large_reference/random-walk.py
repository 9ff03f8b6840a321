from common import Lcg, args, out

walkers, steps, points, seed = args((40, 200, 1200, 424242))
rng = Lcg(seed)
hist = [0] * 8
total_sq = returned = farthest = 0
for _ in range(walkers):
    x = y = 0
    back = False
    for _ in range(steps):
        dx, dy = ((1, 0), (0, 1), (-1, 0), (0, -1))[rng.below(4)]
        x, y = x + dx, y + dy
        farthest = max(farthest, abs(x) + abs(y))
        back = back or (x == 0 and y == 0)
    total_sq += x * x + y * y
    returned += back
    hist[min((abs(x) + abs(y)) // 5, 7)] += 1
out(float(total_sq) / float(walkers), returned, farthest)
out(*hist[:5])

wins = 0
for _ in range(200):
    m = 5
    while 0 < m < 12:
        m += 1 if rng.below(2) == 1 else -1
    wins += m >= 12
out(wins)


def newton_sqrt(v):
    if not v > 0:
        return 0.0
    g = max(v, 1.0) if v >= 1.0 else 1.0
    for _ in range(30):
        g = (g + v / g) * 0.5
    return g


inside, total = 0, 0.0
for _ in range(points):
    x = rng.below(32768) / 32768.0
    y = rng.below(32768) / 32768.0
    r2 = x * x + y * y
    inside += r2 <= 1.0
    total += newton_sqrt(r2)
out(inside, 4.0 * float(inside) / float(points), total / float(points))

size = 15
total = escaped = longest = 0
for _ in range(30):
    seen = set()
    x = y = size // 2
    length = 0
    while True:
        seen.add((x, y))
        if x in (0, size - 1) or y in (0, size - 1):
            escaped += 1
            break
        options = [c for c in ((x + 1, y), (x - 1, y), (x, y - 1), (x, y + 1)) if c not in seen]
        if not options:
            break
        x, y = options[rng.below(len(options))]
        length += 1
    total += length
    longest = max(longest, length)
out(total, escaped, longest)
