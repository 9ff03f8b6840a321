from common import Lcg, args, out

n, k, seed = args((70, 12, 31415))
rng = Lcg(seed)


def letter():
    return chr(97 + rng.below(8))


a = [letter() for _ in range(n)]
b = a[:]
for _ in range(k):
    kind = rng.below(3)
    at = rng.below(len(b))
    if kind == 0:
        b[at] = letter()
    elif kind == 1:
        b.insert(at, letter())
    elif len(b) >= 2:
        del b[at]


def table(a, b):
    t = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        t[i][0] = i
    for j in range(len(b) + 1):
        t[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            t[i][j] = min(t[i - 1][j - 1] + (a[i - 1] != b[j - 1]), t[i - 1][j] + 1, t[i][j - 1] + 1)
    return t


t = table(a, b)
d = t[len(a)][len(b)]
out(len(b), d)
counts = [0, 0, 0, 0]
i, j = len(a), len(b)
while i > 0 or j > 0:
    if i > 0 and j > 0 and a[i - 1] == b[j - 1] and t[i][j] == t[i - 1][j - 1]:
        counts[0] += 1
        i, j = i - 1, j - 1
    elif i > 0 and j > 0 and t[i][j] == t[i - 1][j - 1] + 1:
        counts[1] += 1
        i, j = i - 1, j - 1
    elif i > 0 and t[i][j] == t[i - 1][j] + 1:
        counts[2] += 1
        i -= 1
    else:
        counts[3] += 1
        j -= 1
out(*counts)
out(d <= k, table(a, a)[n][n], table(a, [])[n][0])


def lcs(a, b):
    t = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if a[i - 1] == b[j - 1] else max(t[i - 1][j], t[i][j - 1])
    seq, i, j = [], len(a), len(b)
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            seq.append(a[i - 1])
            i, j = i - 1, j - 1
        elif t[i - 1][j] >= t[i][j - 1]:
            i -= 1
        else:
            j -= 1
    out(*seq[::-1][:4])
    return t[len(a)][len(b)]


l1 = lcs(a, b)
l2 = lcs(b, a)
out(l1, l2)
