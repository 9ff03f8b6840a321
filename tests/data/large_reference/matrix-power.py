from common import Lcg, args, out

n, p, seed = args((6, 1000003, 99991))
rng = Lcg(seed)
flat = [rng.below(p) for _ in range(n * n)]
m = [flat[i * n:(i + 1) * n] for i in range(n)]


def mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(a))) % p for j in range(len(a))] for i in range(len(a))]


def power(a, e):
    r = [[int(i == j) for j in range(len(a))] for i in range(len(a))]
    while e:
        if e & 1:
            r = mul(r, a)
        a = mul(a, a)
        e >>= 1
    return r


def trace(a):
    return sum(a[i][i] for i in range(len(a))) % p


def checksum(a):
    return sum(v * (i + 1) for i, v in enumerate(x for row in a for x in row)) % p


fast = power(m, 37)
slow = [[int(i == j) for j in range(n)] for i in range(n)]
for _ in range(37):
    slow = mul(slow, m)
out(fast == slow, trace(fast), checksum(fast))


def det(a):
    a = [row[:] for row in a]
    d = 1
    for k in range(n):
        r = next((r for r in range(k, n) if a[r][k]), None)
        if r is None:
            return 0
        if r != k:
            a[k], a[r] = a[r], a[k]
            d = -d % p
        d = d * a[k][k] % p
        inv = pow(a[k][k], p - 2, p)
        for r in range(k + 1, n):
            f = a[r][k] * inv % p
            for j in range(k, n):
                a[r][j] = (a[r][j] - f * a[k][j]) % p
    return d


d, dp = det(m), det(fast)
out(d, dp, dp == pow(d, 37, p))
for e in (p - 1, p * p + 1):
    r = power(m, e)
    out(e, trace(r), checksum(r))


def fib(k):
    a, b = 0, 1
    for _ in range(k):
        a, b = b, (a + b) % p
    return a


total = sum(power([[1, 1], [1, 0]], k)[0][1] for k in range(0, 1000, 97))
assert total == sum(fib(k) for k in range(0, 1000, 97))
out(total, 0)
