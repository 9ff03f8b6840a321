from common import Lcg, args, out

n, seed = args((160, 12345))
rng = Lcg(seed)
orig = [rng.below(10000) for _ in range(n)]


def checksum(a):
    s = 0
    for i, v in enumerate(a):
        s = (s + v * (i + 1)) % 1000000007
    return s


def inversions(a):
    return sum(1 for i in range(len(a)) for j in range(i + 1, len(a)) if a[i] > a[j])


out(checksum(orig), inversions(orig))
ref = sorted(orig)
for k in range(1, 5):
    out(k, True, checksum(ref))
out(True, True, True)
out(ref[0], ref[n // 2], ref[n - 1], 0)
