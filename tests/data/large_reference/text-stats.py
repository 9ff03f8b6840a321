import re

from common import Lcg, args, out

n, most, seed = args((1200, 5, 1234))
rng = Lcg(seed)
text = []
while len(text) < n:
    length = rng.below(most) + 1
    for _ in range(length):
        if len(text) < n:
            text.append(chr(97 + rng.below(6)))
    if len(text) < n:
        text.append("a" if len(text) == n - 1 else " ")
text = "".join(text)


def checksum(t):
    s = 0
    for c in t:
        s = (s * 131 + ord(c)) % 1000000007
    return s


def words(t):
    ws = t.split()
    out(len(ws), max(map(len, ws)), sum(len(w) >= 2 and w == w[::-1] for w in ws))
    return re.sub(r"[a-z]+", lambda m: m.group(0)[::-1], t)


words(text)
counts = [text.count(chr(97 + k)) for k in range(26)]
best = max(range(26), key=lambda k: (counts[k], -k))
out(chr(97 + best), counts[best])
pat = text[7:10]
found = sum(text[i:i + 3] == pat for i in range(n - 2))
out(pat[0], pat[1], pat[2], found, found)
rot = "".join(chr((ord(c) - 97 + 13) % 26 + 97) if c.isalpha() else c for c in text)
out(checksum(rot), True)
flipped = words(text)
words(flipped)
out(checksum(flipped), True)
runs = re.findall(r"((.)\2*)", text.replace(" ", "x"))
out(len(runs), True)
