import sys

from common import Lcg, args, out

n, m, seed = args((80, 120, 99))
rng = Lcg(seed)
edges = []
adj = [[0] * n for _ in range(n)]
while len(edges) < m:
    a, b = rng.below(n), rng.below(n)
    if a == b:
        continue
    x = rng.below(100) + 1
    edges.append((a, b, x))
    if adj[a][b] == 0 or x < adj[a][b]:
        adj[a][b] = adj[b][a] = x

sys.setrecursionlimit(10000)
parent, rank, finds = list(range(n)), [0] * n, 0


def find(x):
    global finds
    finds += 1
    if parent[x] != x:
        parent[x] = find(parent[x])
    return parent[x]


total = count = heaviest = 0
for e in sorted(range(m), key=lambda e: (edges[e][2], e)):
    a, b, x = edges[e]
    ra, rb = find(a), find(b)
    if ra == rb:
        continue
    if rank[ra] < rank[rb]:
        parent[ra] = rb
    else:
        parent[rb] = ra
        if rank[ra] == rank[rb]:
            rank[ra] += 1
    total, count, heaviest = total + x, count + 1, max(heaviest, x)
out(n - count, total, count, heaviest, finds)

INF = 1000000
best, done, prim = [INF] * n, [False] * n, 0
for _ in range(n):
    u = min((v for v in range(n) if not done[v]), key=lambda v: (best[v], v))
    done[u] = True
    if best[u] != INF:
        prim += best[u]
    for v in range(n):
        if adj[u][v] and not done[v] and adj[u][v] < best[v]:
            best[v] = adj[u][v]
out(prim)
seen, sizes = [False] * n, []
for s0 in range(n):
    if not seen[s0]:
        seen[s0], queue = True, [s0]
        for u in queue:
            for v in range(n):
                if adj[u][v] and not seen[v]:
                    seen[v] = True
                    queue.append(v)
        sizes.append(len(queue))
out(len(sizes), max(sizes))
