from common import Lcg, args, out

n, seed = args((14, 777))
rng = Lcg(seed)
a = [[0.0] * n for _ in range(n)]
for i in range(n):
    for j in range(n):
        v = float(rng.below(19) - 9)
        if j == (i * 5 + 3) % n:
            v += float(n * 10)
        a[i][j] = v

lu = [row[:] for row in a]
perm = list(range(n))
sign = 1
for k in range(n):
    best = max(range(k, n), key=lambda r: (abs(lu[r][k]), -r))
    if best != k:
        lu[k], lu[best] = lu[best], lu[k]
        perm[k], perm[best] = perm[best], perm[k]
        sign = -sign
    for r in range(k + 1, n):
        f = lu[r][k] / lu[k][k]
        lu[r][k] = f
        for c in range(k + 1, n):
            lu[r][c] = lu[r][c] - f * lu[k][c]
det = float(sign)
for i in range(n):
    det *= lu[i][i]
out(sign, det)


def solve(b):
    y = [0.0] * n
    for i in range(n):
        s = b[perm[i]]
        for j in range(i):
            s -= lu[i][j] * y[j]
        y[i] = s
    x = [0.0] * n
    for i in reversed(range(n)):
        s = y[i]
        for j in range(i + 1, n):
            s -= lu[i][j] * x[j]
        x[i] = s / lu[i][i]
    return x


def mat_vec(m, v):
    res = []
    for row in m:
        s = 0.0
        for x, y in zip(row, v):
            s += x * y
        res.append(s)
    return res


x = solve(mat_vec(a, [1.0] * n))
err = 0.0
for v in x:
    err += abs(v - 1.0)
out(x[0], err)
cols = [solve([1.0 if i == c else 0.0 for i in range(n)]) for c in range(n)]
inv = [[cols[j][i] for j in range(n)] for i in range(n)]
trace = 0.0
resid = 0.0
for i in range(n):
    trace += inv[i][i]
    for j in range(n):
        s = 0.0
        for k in range(n):
            s += a[i][k] * inv[k][j]
        if i == j:
            s -= 1.0
        resid += abs(s)
out(trace, resid * 1e12)
