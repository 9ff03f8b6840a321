from math import gcd

from common import args, out

n, goldbach = args((3000, 2026))
prime = [True] * (n + 1)
prime[0] = prime[1] = False
for i in range(2, int(n ** 0.5) + 1):
    if prime[i]:
        for j in range(i * i, n + 1, i):
            prime[j] = False

phi_total = divisor_total = perfect = most = most_at = 0
agree = True
for x in range(2, n + 1):
    divisors = [d for d in range(1, x + 1) if x % d == 0]
    phi = sum(1 for k in range(1, x + 1) if gcd(k, x) == 1)
    phi_total += phi
    divisor_total += len(divisors)
    perfect += sum(divisors) == 2 * x
    if len(divisors) > most:
        most, most_at = len(divisors), x
    agree = agree and (prime[x] == (len(divisors) == 2))
out(sum(prime), phi_total, divisor_total, perfect, most, most_at, agree)

liars = [i for i in range(3, n + 1, 2) if pow(2, i - 1, i) == 1 and not prime[i]]
out(len(liars), liars[0] if liars else 0)
out(goldbach, sum(1 for p in range(2, goldbach // 2 + 1) if prime[p] and prime[goldbach - p]))

a = b = 1
total = 0
for k in range(30):
    c = a + b + 7
    total += gcd(b, c) + gcd(c, k)
    a, b = b, c
out(total, b)


def mobius(x):
    mu, d = 1, 2
    while x > 1:
        if x % d == 0:
            x //= d
            if x % d == 0:
                return 0
            mu = -mu
        else:
            d += 1
    return mu


def primitive_root(p):
    factors = {q for q in range(2, p) if (p - 1) % q == 0 and prime[q]}
    return next(g for g in range(2, p) if all(pow(g, (p - 1) // q, p) != 1 for q in factors))


top = max(i for i in range(n + 1) if prime[i])
out(sum(mobius(x) for x in range(1, n + 1)), sum(prime[i] and prime[i + 2] for i in range(3, n - 1)),
    top, primitive_root(top), primitive_root(409), primitive_root(1009))
out(sum(prime[i] and i % 4 == 1 for i in range(3, n + 1)), sum(prime[i] and i % 4 == 3 for i in range(3, n + 1)))
