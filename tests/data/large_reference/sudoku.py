from common import Lcg, args, out

puzzles, holes, seed = args((3, 40, 1337))
rng = Lcg(seed)


def make_grid():
    perm = list(range(10))
    for i in range(9, 1, -1):
        j = rng.below(i) + 1
        perm[i], perm[j] = perm[j], perm[i]
    return [perm[(3 * r + r // 3 + c) % 9 + 1] for r in range(9) for c in range(9)]


def allowed(g, r, c, d):
    if any(g[r * 9 + k] == d or g[k * 9 + c] == d for k in range(9)):
        return False
    r0, c0 = r // 3 * 3, c // 3 * 3
    return all(g[(r0 + dr) * 9 + c0 + dc] != d for dr in range(3) for dc in range(3))


def solve(g, at, limit, state):
    state["nodes"] += 1
    while at < 81 and g[at] != 0:
        at += 1
    if at == 81:
        if state["first"] is None:
            state["first"] = g[:]
        return 1
    found = 0
    for d in range(1, 10):
        if found >= limit:
            break
        if allowed(g, at // 9, at % 9, d):
            g[at] = d
            found += solve(g, at + 1, limit - found, state)
            g[at] = 0
    return found


def valid(g):
    rows = [g[r * 9:(r + 1) * 9] for r in range(9)]
    cols = [g[c::9] for c in range(9)]
    boxes = [[g[(b // 3 * 3 + k // 3) * 9 + b % 3 * 3 + k % 3] for k in range(9)] for b in range(9)]
    return all(sorted(u) == list(range(1, 10)) for u in rows + cols + boxes)


for _ in range(puzzles):
    full = make_grid()
    g = full[:]
    h = 0
    while h < holes:
        k = rng.below(81)
        if g[k] > 0:
            g[k] = 0
            h += 1
    counts = [sum(allowed(g, at // 9, at % 9, d) for d in range(1, 10)) for at in range(81) if g[at] == 0]
    out(sum(counts), counts.count(1))
    state = {"nodes": 0, "first": None}
    count = solve(g, 0, 2, state)
    first = state["first"]
    out(count, state["nodes"], valid(first), first == full, first[0])
