from math import factorial

from common import args, out

n, f, e = args((120, 600, 400))


def describe(x):
    s = str(x)
    lead = x
    while lead >= 10000:
        lead //= 10000
    out(len(s), sum(map(int, s)), len(s) - len(s.rstrip("0")), lead, x % 1000000007)


describe(factorial(n))
a, b = 0, 1
for _ in range(f):
    a, b = b, a + b
describe(a)
describe(3 ** e)
out(True)
describe(2 * 3 ** e)
describe(3 ** e - 1)
out(True)
