from common import Lcg, args, out

n, p, seed = args((64, 1000003, 2468))
rng = Lcg(seed)
a, b = [], []
for _ in range(n):
    a.append(rng.below(p))
    b.append(rng.below(p))
prod = [0] * (2 * n - 1)
for i, x in enumerate(a):
    for j, y in enumerate(b):
        prod[i + j] = (prod[i + j] + x * y) % p
out(True, prod[n], max(i for i, c in enumerate(prod) if c), True)


def ev(c, x):
    r = 0
    for coef in reversed(c):
        r = (r * x + coef) % p
    return r


def deriv(c):
    return [i * c[i] % p for i in range(1, len(c))]


ok, total = True, 0
for x in range(10):
    va, vb, vab = ev(a, x), ev(b, x), ev(prod, x)
    ok = ok and vab == va * vb % p
    total += vab
    ok = ok and ev(deriv(prod), x) == (ev(deriv(a), x) * vb + va * ev(deriv(b), x)) % p
out(ok, total % p)


def f(x):
    r = x * x - 3.0
    r = r * x + 0.0
    r = r * x + 1.0
    return r * x - 0.5


def df(x):
    r = 5.0 * x + 0.0
    r = r * x - 9.0
    r = r * x + 0.0
    return r * x + 1.0


converged = 0
x0 = -2.25
while x0 <= 2.25:
    x = x0
    for _ in range(40):
        x = x - f(x) / df(x)
    out(x)
    converged += abs(f(x)) < 1e-12
    x0 += 0.5
out(converged)
