from common import Lcg, args, out

n, percent, seed = args((24, 7, 4242))
INF = 10**9
rng = Lcg(seed)
w = [[0] * n for _ in range(n)]
for i in range(n):
    for j in range(n):
        if i != j:
            w[i][j] = rng.below(50) + 1 if rng.below(100) < percent else INF


def dijkstra(src):
    dist, prev, seen = [INF] * n, [-1] * n, [False] * n
    dist[src] = 0
    for _ in range(n):
        candidates = [v for v in range(n) if not seen[v] and dist[v] < INF]
        if not candidates:
            break
        u = min(candidates, key=lambda v: (dist[v], v))
        seen[u] = True
        for v in range(n):
            if w[u][v] < INF and dist[u] + w[u][v] < dist[v]:
                dist[v], prev[v] = dist[u] + w[u][v], u
    return dist, prev


total = unreachable = diameter = far_hops = 0
dj = []
for s in range(n):
    dist, prev = dijkstra(s)
    dj.append(dist)
    for t in range(n):
        if dist[t] < INF:
            total += dist[t]
            if dist[t] > diameter:
                diameter, hops, v = dist[t], 0, t
                while v != s:
                    v, hops = prev[v], hops + 1
                far_hops = hops
        else:
            unreachable += 1

fw = [row[:] for row in w]
for k in range(n):
    for i in range(n):
        for j in range(n):
            fw[i][j] = min(fw[i][j], fw[i][k] + fw[k][j])
mismatches = sum(dj[i][j] != fw[i][j] for i in range(n) for j in range(n))

dist = [INF] * n
dist[0] = 0
rounds = 0
while True:
    rounds += 1
    changed = False
    for u in range(n):
        if dist[u] < INF:
            for v in range(n):
                if w[u][v] < INF and dist[u] + w[u][v] < dist[v]:
                    dist[v] = dist[u] + w[u][v]
                    changed = True
    if not changed:
        break
mismatches += sum(dist[t] != fw[0][t] for t in range(n))
out(total, unreachable, diameter, far_hops)
out(mismatches, rounds)
reach = [[w[i][j] < INF for j in range(n)] for i in range(n)]
for k in range(n):
    for i in range(n):
        for j in range(n):
            reach[i][j] = reach[i][j] or (reach[i][k] and reach[k][j])
reachable = sum(reach[i][j] for i in range(n) for j in range(n) if i != j)
out(reachable, reachable == n * n - n - unreachable)
degrees = [sum(w[i][j] < INF for j in range(n) if j != i) for i in range(n)]
best = max(range(n), key=lambda i: (degrees[i], -i))
out(best, degrees[best])
