from bisect import bisect_left

from common import Lcg, args, out

n, k, cap, seed = args((120, 40, 500, 6061))
rng = Lcg(seed)
a = [rng.below(1000) for _ in range(n)]

length, prev = [1] * n, [-1] * n
for i in range(n):
    for j in range(i):
        if a[j] < a[i] and length[j] + 1 > length[i]:
            length[i], prev[i] = length[j] + 1, j
best = max(length)
end = length.index(best)
seq = []
while end >= 0:
    seq.append(a[end])
    end = prev[end]
out(len(seq) == best, all(x > y for x, y in zip(seq, seq[1:])), sum(seq))
tails = []
for v in a:
    at = bisect_left(tails, v)
    tails[at:at + 1] = [v]
out(best, len(tails), best == len(tails))

w = [rng.below(40) + 5 for _ in range(k)]
v = [rng.below(100) + 1 for _ in range(k)]
zero_one = [0] * (cap + 1)
for wi, vi in zip(w, v):
    for c in range(cap, wi - 1, -1):
        zero_one[c] = max(zero_one[c], zero_one[c - wi] + vi)
unbounded = [0] * (cap + 1)
for c in range(1, cap + 1):
    unbounded[c] = max([unbounded[c]] + [unbounded[c - wi] + vi for wi, vi in zip(w, v) if wi <= c])
out(zero_one[cap], unbounded[cap], zero_one[cap] <= unbounded[cap])

ways = [1] + [0] * cap
for coin in (1, 2, 5, 10, 20, 50):
    for amount in range(coin, cap + 1):
        ways[amount] = (ways[amount] + ways[amount - coin]) % 1000000007
out(ways[cap])
out(sum(ways) % 1000000007)
fewest = [0] + [10**6] * cap
for amount in range(1, cap + 1):
    fewest[amount] = min([fewest[amount]] + [fewest[amount - c] + 1 for c in (1, 2, 5, 10, 20, 50) if c <= amount])
out(fewest[cap])
out(sum(f > 5 for f in fewest[1:]))
