import heapq

from common import Lcg, args, out

n, s, seed = args((1500, 16, 77))
rng = Lcg(seed)
text = []
for _ in range(n):
    a, b = rng.below(s), rng.below(s)
    text.append(min(a, b))
weight = [text.count(x) for x in range(s)]
heap = [(w, x) for x, w in enumerate(weight) if w > 0]
heapq.heapify(heap)
parent = {}
node = s
while len(heap) > 1:
    wa, a = heapq.heappop(heap)
    wb, b = heapq.heappop(heap)
    parent[a] = parent[b] = node
    heapq.heappush(heap, (wa + wb, node))
    node += 1


def depth(x):
    d = 0
    while x in parent:
        x, d = parent[x], d + 1
    return d


length = [depth(x) if weight[x] else 0 for x in range(s)]
longest = max(length)
bits = sum(w * l for w, l in zip(weight, length))
kraft = sum(2 ** (longest - l) for l in length if l)
out(node, longest, bits, kraft == 2 ** longest)

codes, code = {}, 0
for l in range(1, longest + 1):
    code *= 2
    for x in range(s):
        if length[x] == l:
            codes[x] = format(code, f"0{l}b")
            code += 1
stream = "".join(codes[x] for x in text)
decode = {c: x for x, c in codes.items()}
decoded, cur = [], ""
for bit in stream:
    cur += bit
    if cur in decode:
        decoded.append(decode[cur])
        cur = ""
out(decoded == text, len(stream) == bits, n * (s - 1).bit_length())
