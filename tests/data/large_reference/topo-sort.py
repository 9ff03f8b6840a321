import sys

from common import Lcg, args, out

n, percent, seed = args((48, 12, 8086))
rng = Lcg(seed)
rank = list(range(n))
for i in range(n - 1, 0, -1):
    j = rng.below(i + 1)
    rank[i], rank[j] = rank[j], rank[i]
adj = [[False] * n for _ in range(n)]
edges = 0
for u in range(n):
    for v in range(n):
        if rank[u] < rank[v] and rng.below(100) < percent:
            adj[u][v] = True
            edges += 1

indeg = [sum(adj[u][v] for u in range(n)) for v in range(n)]
order = [v for v in range(n) if indeg[v] == 0]
head = 0
while head < len(order):
    u = order[head]
    head += 1
    for v in range(n):
        if adj[u][v]:
            indeg[v] -= 1
            if indeg[v] == 0:
                order.append(v)


def valid(order):
    pos = {v: i for i, v in enumerate(order)}
    return all(pos[u] < pos[v] for u in range(n) for v in range(n) if adj[u][v])


def checksum(order):
    s = 0
    for v in order:
        s = (s * 31 + v) % 1000003
    return s


def paths(order):
    longest, count = [0] * n, [1] * n
    best = total = 0
    for u in order:
        total = (total + count[u]) % 1000000007
        best = max(best, longest[u])
        for v in range(n):
            if adj[u][v]:
                longest[v] = max(longest[v], longest[u] + 1)
                count[v] = (count[v] + count[u]) % 1000000007
    out(best, total)


out(edges, len(order), valid(order), checksum(order))
out(sum(not any(adj[u][v] for u in range(n)) for v in range(n)), sum(not any(adj[v]) for v in range(n)))
paths(order)
sys.setrecursionlimit(10000)
seen, post = [False] * n, []


def dfs(u):
    seen[u] = True
    for v in range(n):
        if adj[u][v] and not seen[v]:
            dfs(v)
    post.append(u)


for r in range(n):
    if not seen[r]:
        dfs(r)
order = post[::-1]
out(valid(order), checksum(order))
paths(order)
