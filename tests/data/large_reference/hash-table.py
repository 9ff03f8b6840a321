from common import Lcg, args, out, wrap

n, m, seed = args((200, 150, 97))
rng = Lcg(seed)


def fnv1a(key):
    h = 14695981039346656037
    for c in str(key).encode():
        h = ((h ^ c) * 1099511628211) % (1 << 64)
    return wrap(h)


class Table:
    def __init__(self):
        self.cap, self.live, self.used, self.probes, self.resizes = 16, 0, 0, 0, 0
        self.keys, self.values, self.states = [0] * 16, [0] * 16, [0] * 16

    def find(self, key):
        i = fnv1a(key) % self.cap
        while True:
            self.probes += 1
            if self.states[i] == 0:
                return -1
            if self.states[i] == 1 and self.keys[i] == key:
                return i
            i = (i + 1) % self.cap

    def place(self, key, value):
        i = fnv1a(key) % self.cap
        while self.states[i] == 1:
            i = (i + 1) % self.cap
        if self.states[i] == 0:
            self.used += 1
        self.keys[i], self.values[i], self.states[i] = key, value, 1
        self.live += 1

    def insert(self, key, value):
        at = self.find(key)
        if at >= 0:
            self.values[at] = value
            return
        if (self.used + 1) * 10 > self.cap * 6:
            old = [(k, v) for k, v, s in zip(self.keys, self.values, self.states) if s == 1]
            self.cap *= 2
            self.live = self.used = 0
            self.resizes += 1
            self.keys, self.values, self.states = [0] * self.cap, [0] * self.cap, [0] * self.cap
            for k, v in old:
                self.place(k, v)
        self.place(key, value)

    def remove(self, key):
        at = self.find(key)
        if at >= 0:
            self.states[at] = 2
            self.live -= 1
        return at >= 0

    def lookup(self, key):
        at = self.find(key)
        return self.values[at] if at >= 0 else -1

    def report(self):
        out(self.cap, self.live, self.used, self.probes, self.resizes)


table, model = Table(), {}


def check(keys):
    found = [table.lookup(k) for k in keys]
    assert found == [model.get(k, -1) for k in keys]
    out(sum(v >= 0 for v in found), sum(v for v in found if v >= 0))


inserted = []
for i in range(n):
    k = rng.below(100000)
    inserted.append(k)
    table.insert(k, i)
    model[k] = i
table.report()
others = [rng.below(100000) for _ in range(m)]
check(inserted)
check(others)
removed = 0
for k in inserted[::3]:
    if table.remove(k):
        removed += 1
        del model[k]
out(removed)
check(inserted)
table.report()
for i, k in enumerate(others):
    table.insert(k, i + n)
    model[k] = i + n
check(inserted)
check(others)
table.report()
